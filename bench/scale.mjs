#!/usr/bin/env node
// The scale part of `npm run bench`: an embedded vault holding 10,000 journal
// entries, 10,000 targets and 200 photos, all stored through its own API. It
// times the reads at that size, the journal screen's first entries and the
// dashboard's transfer in Chromium, then self-destructs the vault and checks
// that nothing is left. Prints one JSON line.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openConnection } from '@vault/persistence';
import { dashboardTransfer, journalFirstEntries, signedInPage } from './browser.mjs';
import { inParallel, seedEntries, seedTargets, startEmbedded } from './vault-process.mjs';

const ENTRIES = Number(process.env.BENCH_SCALE_ENTRIES ?? 10_000);
const TARGETS = Number(process.env.BENCH_SCALE_TARGETS ?? 10_000);
const PHOTOS = Number(process.env.BENCH_SCALE_PHOTOS ?? 200);
const PORT = Number(process.env.BENCH_SCALE_PORT ?? 3721);

/** A real 1x1 GIF whose one colour encodes `n`, so every photo is a different file. */
const gif = (n) =>
  Buffer.from([
    0x47,
    0x49,
    0x46,
    0x38,
    0x39,
    0x61,
    1,
    0,
    1,
    0,
    0x80,
    0,
    0,
    n & 0xff,
    (n >> 8) & 0xff,
    0x40,
    0,
    0,
    0,
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    2,
    2,
    0x44,
    1,
    0,
    0x3b,
  ]);

async function uploadPhoto(base, cookie, n) {
  const issued = await fetch(`${base}/api/objects/upload`, { method: 'POST', headers: { cookie } });
  const { uploadURL, uploadHeaders } = await issued.json();
  const url = uploadURL.startsWith('/') ? base + uploadURL : uploadURL;
  const put = await fetch(url, { method: 'PUT', body: gif(n), headers: { 'content-type': 'image/gif', ...uploadHeaders, cookie, origin: base } });
  if (put.status !== 200) throw new Error(`photo upload: ${put.status}`);
  const registered = await fetch(`${base}/api/photos`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ photoURL: uploadURL }),
  });
  if (registered.status !== 200) throw new Error(`photo registration: ${registered.status} ${await registered.text()}`);
}

/** Median of 5 sequential calls, and the answer's size. */
async function timedGet(base, cookie, path) {
  const times = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const response = await fetch(base + path, { headers: { cookie } });
    bytes = (await response.arrayBuffer()).byteLength;
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[2], bytes };
}

const filesUnder = (dir) =>
  (existsSync(dir) ? readdirSync(dir) : []).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [name]));

/** Rows left in every table of every service's schema, once the vault is stopped. */
async function rowsLeft(dataDir) {
  const connection = await openConnection({ kind: 'embedded', dataDir });
  if (connection.kind !== 'postgres') throw new Error('openConnection gave no PostgreSQL pool');
  try {
    const db = connection.pool;
    const tables = (
      await db.query(
        "select table_schema || '.' || table_name as t from information_schema.tables where table_schema in ('auth', 'planner', 'journal', 'audit', 'media') order by 1",
      )
    ).rows;
    const left = [];
    for (const { t } of tables) {
      const [schema, name] = t.split('.');
      const { rows } = await db.query(`select count(*)::int as c from "${schema}"."${name}"`);
      if (rows[0].c > 0) left.push(`${t}=${rows[0].c}`);
    }
    return left;
  } finally {
    await connection.close();
  }
}

const result = {};
const dataDir = mkdtempSync(join(tmpdir(), 'vault-bench-scale-'));
const vault = await startEmbedded({ port: PORT, dataDir });
try {
  const { base } = vault;
  const cookie = await vault.login();
  let started = performance.now();
  await seedTargets(base, cookie, TARGETS);
  await seedEntries(base, cookie, ENTRIES);
  await inParallel(PHOTOS, 8, (n) => uploadPhoto(base, cookie, n));
  result.seedSeconds = (performance.now() - started) / 1000;
  const count = (await (await fetch(`${base}/api/journal/count`, { headers: { cookie } })).json()).count;
  const photos = (await (await fetch(`${base}/api/photos`, { headers: { cookie } })).json()).length;
  Object.assign(result, { entries: count, photos });

  result.targets = { count: TARGETS, ...(await timedGet(base, cookie, '/api/targets')) };
  result.journalAll = await timedGet(base, cookie, '/api/journal');
  result.journalPage = await timedGet(base, cookie, '/api/journal?limit=50');

  const newest = (await (await fetch(`${base}/api/journal?limit=1`, { headers: { cookie } })).json())[0].title;
  const { browser, page } = await signedInPage(base, cookie);
  try {
    result.journalScreen = await journalFirstEntries(page, base, newest);
    result.dashboard = await dashboardTransfer(page, base);
  } finally {
    await browser.close();
  }

  // Self-destruct: from the owner's call to its answer, which comes only once every service has confirmed its erase.
  started = performance.now();
  const destroyed = await fetch(`${base}/api/settings/self-destruct`, { method: 'POST', headers: { cookie, origin: base } });
  const confirmedMs = performance.now() - started;
  const answer = await destroyed.text();
  if (destroyed.status !== 200) throw new Error(`self-destruct answered ${destroyed.status} ${answer}`);
  const refused = (await fetch(`${base}/api/targets`, { headers: { cookie } })).status;
  const objectsLeft = filesUnder(join(dataDir, 'objects')).length;
  await vault.stop();
  // Verified empty: every table but the vault's own destroyed mark and the access log's erasure instant, and every photo file.
  const left = (await rowsLeft(dataDir)).filter((t) => !t.startsWith('auth.vault_state=') && t !== 'audit.erasure=1');
  result.selfDestruct = {
    confirmedSeconds: confirmedMs / 1000,
    answer,
    afterwards: refused,
    objectsLeft,
    rowsLeft: left,
    empty: refused === 410 && objectsLeft === 0 && left.length === 0,
  };
} finally {
  await vault.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(result)}\n`);
