#!/usr/bin/env node
// The export's memory figure: an embedded vault holding 10,000 journal entries
// and 200 photos of 10 MB (stored through its own API) streams its export
// while the vault process's resident memory is sampled every 20 ms. Prints
// the rise over the memory it had just before, a line for people, then one
// JSON line (the last) for bench/run.mjs. The budget is 64 MB.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OWNER } from '../scripts/lib/vault-launcher.mjs';
import { noisePng } from './noise-png.mjs';
import { describeRise, peakResident, residentBytes, riseFigures } from './process-tree.mjs';
import { inParallel, seedEntries, startEmbedded } from './vault-process.mjs';

const ENTRIES = Number(process.env.BENCH_EXPORT_ENTRIES ?? 10_000);
const PHOTOS = Number(process.env.BENCH_EXPORT_PHOTOS ?? 200);
const PORT = Number(process.env.BENCH_EXPORT_PORT ?? 3731);
/** With a passphrase the archive is an age file: scrypt's one key derivation (256 MiB at age's work factor 18) comes on top. */
const PASSPHRASE = process.env.BENCH_EXPORT_PASSPHRASE;
export const EXPORT_RSS_BUDGET_MB = 64;

async function uploadPhoto(base, cookie, n) {
  const issued = await fetch(`${base}/api/objects/upload`, { method: 'POST', headers: { cookie } });
  const { uploadURL, uploadHeaders } = await issued.json();
  const put = await fetch(base + uploadURL, {
    method: 'PUT',
    body: noisePng(n),
    headers: { 'content-type': 'image/png', ...uploadHeaders, cookie, origin: base },
  });
  if (put.status !== 200) throw new Error(`photo upload: ${put.status} ${await put.text()}`);
  const registered = await fetch(`${base}/api/photos`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ photoURL: uploadURL }),
  });
  if (registered.status !== 200) throw new Error(`photo registration: ${registered.status} ${await registered.text()}`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'vault-bench-export-'));
const vault = await startEmbedded({ port: PORT, dataDir });
/** @type {{ stop(): number } | undefined} */
let sampler;
try {
  const { base } = vault;
  const cookie = await vault.login();
  let started = performance.now();
  await seedEntries(base, cookie, ENTRIES);
  await inParallel(PHOTOS, 2, (n) => uploadPhoto(base, cookie, n));
  const seedSeconds = (performance.now() - started) / 1000;
  // Settle: the seeding's garbage is collected before the baseline is taken.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const before = residentBytes(vault.child.pid);
  sampler = peakResident(vault.child.pid);
  started = performance.now();
  const response = await fetch(`${base}/api/settings/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ password: OWNER.password, ...(PASSPHRASE ? { passphrase: PASSPHRASE } : {}) }),
  });
  if (response.status !== 200) throw new Error(`export: ${response.status} ${await response.text()}`);
  let bytes = 0;
  // Read and dropped as it arrives, as a browser saving to disk does.
  for await (const part of response.body) bytes += part.length;
  const exportSeconds = (performance.now() - started) / 1000;
  const peak = sampler.stop();
  const result = {
    entries: ENTRIES,
    photos: PHOTOS,
    encrypted: Boolean(PASSPHRASE),
    archiveBytes: bytes,
    seedSeconds,
    exportSeconds,
    ...riseFigures(before, peak, EXPORT_RSS_BUDGET_MB),
  };
  process.stderr.write(
    `${PASSPHRASE ? 'encrypted ' : ''}export of ${ENTRIES} entries and ${PHOTOS} photos (${(bytes / 1024 ** 3).toFixed(2)} GiB) in ${exportSeconds.toFixed(1)} s: ${describeRise(result)}\n`,
  );
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  sampler?.stop();
  await vault.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
