#!/usr/bin/env node
// How long the journal screen takes to show its first entries with N entries
// stored (default 1,000): from navigation to the first entry visible, in
// Debian's Chromium against an embedded vault. Prints the median of 5 loads.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = Number(process.argv[2] ?? 1000);
const PORT = 3731;
const base = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(join(tmpdir(), 'vault-journal-bench-'));
const owner = { username: 'bench', password: 'bench-password-123' };
const vault = spawn(process.execPath, ['apps/vault/dist/main.js'], {
  cwd: root,
  stdio: 'ignore',
  env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', VAULT_DATA_DIR: dataDir, VAULT_OWNER_USERNAME: owner.username, VAULT_OWNER_PASSWORD: owner.password, VAULT_LOGIN_RATE_LIMIT: '1000' },
});
try {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/health/ready`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(owner) });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  for (let i = 0; i < ENTRIES; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, ENTRIES - i) }, (_, j) =>
      fetch(`${base}/api/journal`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ title: `Entry ${i + j}`, content: `Field note ${i + j}\nsecond line` }) })));
  }
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const context = await browser.newContext();
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, domain: '127.0.0.1', path: '/' }]);
  const page = await context.newPage();
  const times = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    await page.goto(`${base}/journal`);
    await page.getByText(`Entry ${ENTRIES - 1}`, { exact: true }).first().waitFor();
    times.push(performance.now() - started);
  }
  await browser.close();
  times.sort((a, b) => a - b);
  const count = await (await fetch(`${base}/api/journal/count`, { headers: { cookie } })).json();
  process.stdout.write(`journal screen, ${count.count} entries stored: first entries visible after ${times[2].toFixed(0)} ms (median of 5; min ${times[0].toFixed(0)}, max ${times[4].toFixed(0)})\n`);
} finally {
  vault.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  rmSync(dataDir, { recursive: true, force: true });
}
