#!/usr/bin/env node
// The journal import's memory figure: a Day One JSON export of 10,000
// entries and 200 photos of 10 MB (about 2 GB, written to a file here)
// goes into an embedded vault through POST /api/settings/import-journal,
// streamed from the file, while the vault process's resident memory is
// sampled every 20 ms. Prints the rise over the memory it had just before,
// a line for people, then one JSON line (the last) for bench/run.mjs. The
// budget is the archive's: 64 MB. Then a second export of the same size
// (other entries, other photos) goes into the same vault: its rise is what
// streaming costs once the process has paid for what a first import loads
// (sharp and libvips, a young generation grown to its size, the memory
// glibc keeps), and shows whether memory grows with what was imported.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { noisePng } from './noise-png.mjs';
import { describeRise, peakResident, residentBytes, riseFigures } from './process-tree.mjs';
import { startEmbedded } from './vault-process.mjs';

const ENTRIES = Number(process.env.BENCH_IMPORT_ENTRIES ?? 10_000);
const PHOTOS = Number(process.env.BENCH_IMPORT_PHOTOS ?? 200);
const PORT = Number(process.env.BENCH_IMPORT_PORT ?? 3732);
export const IMPORT_RSS_BUDGET_MB = 64;

const hex = (seed) => createHash('sha256').update(seed).digest('hex').slice(0, 32).toUpperCase();

/**
 * The export as Day One writes it: one journal's JSON (every entry with a
 * paragraph of text, the first PHOTOS with a photo each) and `photos/<md5>.png`,
 * stored as they are. A photo is made again when the zip reaches it, so the
 * bench's own process never holds more than one. Exports of another `number`
 * hold other entries and other photos.
 */
async function writeDayOneZip(path, number) {
  const zip = new yazl.ZipFile();
  const entries = [];
  const seed = (i) => i + number * ENTRIES;
  for (let i = 0; i < ENTRIES; i++) {
    const entry = {
      uuid: hex(`bench entry ${seed(i)}`),
      creationDate: new Date(Date.UTC(2000, 0, 1) + i * 3_600_000 * 13).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      timeZone: 'Europe/Paris',
      text: `# Day ${i + 1}\n\nA paragraph of the day, written to be read again years from now: ${'words of the day '.repeat(12)}`,
    };
    if (i < PHOTOS) {
      const md5 = createHash('md5')
        .update(noisePng(seed(i)))
        .digest('hex');
      const identifier = hex(`bench photo ${seed(i)}`);
      entry.text += `\n\n![](dayone-moment://${identifier})`;
      entry.photos = [{ identifier, md5, type: 'png' }];
      zip.addReadStreamLazy(`photos/${md5}.png`, { compress: false }, (done) => done(null, Readable.from([noisePng(seed(i))])));
    }
    entries.push(entry);
  }
  zip.addBuffer(Buffer.from(JSON.stringify({ metadata: { version: '1.0' }, entries })), 'Journal.json');
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
}

const dataDir = mkdtempSync(join(tmpdir(), 'vault-bench-import-'));
const zipPaths = [join(dataDir, 'Day One export.zip'), join(dataDir, 'Day One export 2.zip')];
/** @type {{ stop(): number } | undefined} */
let sampler;
const started = performance.now();
await writeDayOneZip(zipPaths[0], 0);
const writeSeconds = (performance.now() - started) / 1000;
await writeDayOneZip(zipPaths[1], 1);
const zipBytes = statSync(zipPaths[0]).size;
// BENCH_IMPORT_VAULT_ENV: more of the vault's environment as JSON, to try a setting (glibc's MALLOC_ARENA_MAX, say).
const vault = await startEmbedded({ port: PORT, dataDir: join(dataDir, 'vault'), env: JSON.parse(process.env.BENCH_IMPORT_VAULT_ENV ?? '{}') });

/** One import of the export at `path`, its seconds and the vault's resident memory before it and at its peak. */
async function measuredImport(path, cookie) {
  // Settle: the garbage of what came before is collected before the baseline is taken.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const before = residentBytes(vault.child.pid);
  sampler = peakResident(vault.child.pid);
  const started = performance.now();
  // A streamed body needs duplex 'half', which the DOM's RequestInit type does not name yet.
  const upload = {
    method: 'POST',
    headers: { 'content-type': 'application/zip', 'content-length': String(statSync(path).size), cookie },
    body: Readable.toWeb(createReadStream(path)),
    duplex: 'half',
  };
  const response = await fetch(`${vault.base}/api/settings/import-journal`, /** @type {RequestInit} */ (upload));
  const summary = await response.json();
  const seconds = (performance.now() - started) / 1000;
  const peak = sampler.stop();
  if (response.status !== 200) throw new Error(`import: ${response.status} ${JSON.stringify(summary)}`);
  if (summary.entries !== ENTRIES || summary.photos !== PHOTOS)
    throw new Error(`import: ${JSON.stringify(summary)}, not ${ENTRIES} entries and ${PHOTOS} photos`);
  return { seconds, before, peak };
}

try {
  const cookie = await vault.login();
  const first = await measuredImport(zipPaths[0], cookie);
  const second = await measuredImport(zipPaths[1], cookie);
  const secondRise = riseFigures(second.before, second.peak, IMPORT_RSS_BUDGET_MB);
  const result = {
    entries: ENTRIES,
    photos: PHOTOS,
    zipBytes,
    writeSeconds,
    importSeconds: first.seconds,
    ...riseFigures(first.before, first.peak, IMPORT_RSS_BUDGET_MB),
    secondImportSeconds: second.seconds,
    secondRssBeforeMb: secondRise.rssBeforeMb,
    secondRssPeakMb: secondRise.rssPeakMb,
    secondRssRiseMb: secondRise.rssRiseMb,
  };
  process.stderr.write(
    `journal import of ${ENTRIES} entries and ${PHOTOS} photos (${(zipBytes / 1024 ** 3).toFixed(2)} GiB) in ${first.seconds.toFixed(1)} s: ${describeRise(result)}\n` +
      `a second export of the same size into the same vault, in ${second.seconds.toFixed(1)} s: vault RSS ${secondRise.rssBeforeMb.toFixed(0)} -> peak ${secondRise.rssPeakMb.toFixed(0)} MB, rise ${secondRise.rssRiseMb.toFixed(1)} MB\n`,
  );
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  sampler?.stop();
  await vault.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
