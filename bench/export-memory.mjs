#!/usr/bin/env node
// The export's memory figure: an embedded vault holding 10,000 journal entries
// and 200 photos of 10 MB (stored through its own API) streams its export
// while the vault process's resident memory is sampled every 20 ms. Prints
// the rise over the memory it had just before, a line for people, then one
// JSON line (the last) for bench/run.mjs. The budget is 64 MB.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { OWNER } from '../scripts/lib/vault-launcher.mjs';
import { inParallel, seedEntries, startEmbedded } from './vault-process.mjs';

const ENTRIES = Number(process.env.BENCH_EXPORT_ENTRIES ?? 10_000);
const PHOTOS = Number(process.env.BENCH_EXPORT_PHOTOS ?? 200);
const PORT = Number(process.env.BENCH_EXPORT_PORT ?? 3731);
/** With a passphrase the archive is an age file: scrypt's one key derivation (256 MiB at age's work factor 18) comes on top. */
const PASSPHRASE = process.env.BENCH_EXPORT_PASSPHRASE;
export const EXPORT_RSS_BUDGET_MB = 64;

/** PNG chunk: length, type, data, CRC. */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG just under 10 MB (10,485,760 bytes): 1600x1600 pixels of noise,
 * stored (deflate level 0), so it cannot be compressed away. `n` changes the
 * first pixel: every photo is a different file.
 */
const SIDE = 1600;
const noise = randomBytes(SIDE * (SIDE * 4 + 1));
function photo(n) {
  const pixels = Buffer.from(noise);
  for (let row = 0; row < SIDE; row++) pixels[row * (SIDE * 4 + 1)] = 0;
  pixels.writeUInt32BE(n, 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIDE, 0);
  header.writeUInt32BE(SIDE, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function uploadPhoto(base, cookie, n) {
  const issued = await fetch(`${base}/api/objects/upload`, { method: 'POST', headers: { cookie } });
  const { uploadURL, uploadHeaders } = await issued.json();
  const put = await fetch(base + uploadURL, {
    method: 'PUT',
    body: photo(n),
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

/** The process's resident set, in bytes (Linux). */
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

const dataDir = mkdtempSync(join(tmpdir(), 'vault-bench-export-'));
const vault = await startEmbedded({ port: PORT, dataDir });
/** @type {NodeJS.Timeout | undefined} */
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
  const before = rssOf(vault.child.pid);
  let peak = before;
  sampler = setInterval(() => (peak = Math.max(peak, rssOf(vault.child.pid))), 20);
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
  clearInterval(sampler);
  const riseMb = (peak - before) / 1024 ** 2;
  const result = {
    entries: ENTRIES,
    photos: PHOTOS,
    encrypted: Boolean(PASSPHRASE),
    archiveBytes: bytes,
    seedSeconds,
    exportSeconds,
    rssBeforeMb: before / 1024 ** 2,
    rssPeakMb: peak / 1024 ** 2,
    rssRiseMb: riseMb,
    budgetMb: EXPORT_RSS_BUDGET_MB,
    met: riseMb < EXPORT_RSS_BUDGET_MB,
  };
  process.stderr.write(
    `${PASSPHRASE ? 'encrypted ' : ''}export of ${ENTRIES} entries and ${PHOTOS} photos (${(bytes / 1024 ** 3).toFixed(2)} GiB) in ${exportSeconds.toFixed(1)} s: ` +
      `vault RSS ${result.rssBeforeMb.toFixed(0)} -> peak ${result.rssPeakMb.toFixed(0)} MB, rise ${riseMb.toFixed(1)} MB (budget < ${EXPORT_RSS_BUDGET_MB} MB: ${result.met ? 'met' : 'NOT met'})\n`,
  );
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  clearInterval(sampler);
  await vault.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
