#!/usr/bin/env node
// How long the journal screen takes to show its first entries with N entries
// stored (default 1,000): from navigation to the first entry visible, in
// Debian's Chromium against an embedded vault. Prints the median of 5 loads.
// `npm run bench` measures the same at 10,000 entries (bench/scale.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journalFirstEntries, signedInPage } from './browser.mjs';
import { seedEntries, startEmbedded } from './vault-process.mjs';

const ENTRIES = Number(process.argv[2] ?? 1000);
const dataDir = mkdtempSync(join(tmpdir(), 'vault-journal-bench-'));
const vault = await startEmbedded({ port: 3731, dataDir });
try {
  const cookie = await vault.login();
  await seedEntries(vault.base, cookie, ENTRIES);
  const { browser, page } = await signedInPage(vault.base, cookie);
  const times = await journalFirstEntries(page, vault.base, `Entry ${ENTRIES - 1}`);
  await browser.close();
  const count = await (await fetch(`${vault.base}/api/journal/count`, { headers: { cookie } })).json();
  process.stdout.write(
    `journal screen, ${count.count} entries stored: first entries visible after ${times.median.toFixed(0)} ms (median of 5; min ${times.min.toFixed(0)}, max ${times.max.toFixed(0)})\n`,
  );
} finally {
  await vault.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
