import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient } from '@vault/testing';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, type AppProcess } from './app-process.js';
import { OtlpCollector } from './otlp-collector.js';
import { freePort } from './private-nats.js';
import { OWNER, OWNER_ENV } from './stack.js';

/** Only this test writes it: a word that must never be found in clear outside journal-svc's memory. */
const CANARY = 'Zephyrinecanary';

/** Every file under `dir`, however deep (PostgreSQL's data files, WAL, the key file). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Where the word is, as UTF-8 or UTF-16 and in any case, in these bytes. */
function holdsCanary(bytes: Buffer): boolean {
  const folded = bytes.toString('latin1').toLowerCase();
  const word = CANARY.toLowerCase();
  return folded.includes(word) || folded.includes([...word].join('\0'));
}

/**
 * Issue 34, must-show 2: entries holding a canary word, searched for by
 * word, phrase and part of a word; then the vault's whole data folder (its
 * PostgreSQL's files and WAL, after a clean stop), its debug log, its
 * metrics and its exported traces hold the word nowhere in clear.
 */
describe('journal search leaves nothing of the text outside memory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-canary-'));
  const collector = new OtlpCollector();
  let vault: AppProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    vault = await startApp('apps/vault/dist/main.js', {
      LOG_LEVEL: 'debug',
      VAULT_DATA_DIR: dataDir,
      VAULT_WEB_DIST: join(dataDir, 'no-web-app'),
      ...OWNER_ENV,
      METRICS_PORT: String(metricsPort),
      OTEL_EXPORTER_OTLP_ENDPOINT: await collector.start(),
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  }, 90_000);

  afterAll(async () => {
    await vault?.stop();
    await collector.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds the canary, and no file, log line, metric or span holds it', async () => {
    const owner = new ApiClient(vault.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
    const created = await owner.request('POST', '/api/journal', { title: `${CANARY} sighting`, content: `Saw the ${CANARY} over the harbour.` });
    expect(created.status).toBe(201);
    await owner.request('POST', '/api/journal', { content: `Ünïcödé ${CANARY} entry, edited below` });
    const second = (await owner.request('GET', '/api/journal')).json[0];
    expect((await owner.request('PATCH', `/api/journal/${second.id}`, { content: `Edited: still the ${CANARY}` })).status).toBe(200);

    for (const query of [CANARY, `"the ${CANARY}"`, CANARY.slice(2, 12).toUpperCase()]) {
      const found = await owner.request('POST', '/api/journal/search', { query });
      expect([query, found.status, found.json.length]).toEqual([query, 200, 2]);
    }
    const metrics = await (await fetch(metricsUrl)).text();
    expect(metrics).toMatch(/^vault_rpc_server_duration_seconds_count\{[^}]*pattern="journal\.entries\.search"/m);
    await collector.waitFor((spans) => spans.some((span) => span.name === 'journal.entries.search'));
    await vault.stop();

    const leaks = [
      ...filesUnder(dataDir).filter((path) => holdsCanary(readFileSync(path))),
      ...(holdsCanary(Buffer.from(JSON.stringify(vault.lines))) ? ['the log'] : []),
      ...(holdsCanary(Buffer.from(metrics)) ? ['the metrics'] : []),
      ...(holdsCanary(Buffer.from(collector.bodies.join('\n'))) ? ['the traces'] : []),
    ];
    expect(leaks).toEqual([]);
    // The log was at debug level and saw the searches (by their pattern, never their words).
    expect(vault.lines.some((line) => line.msg === 'rpc handled' && line.pattern === 'journal.entries.search')).toBe(true);
  });
});
