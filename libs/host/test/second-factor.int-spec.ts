import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Clock } from '@vault/gateway';
import { openConnection } from '@vault/persistence';
import { ApiClient } from '@vault/testing';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSecondFactor, enrolTotp } from '../../auth/test/second-factor.behaviour.js';
import { OWNER, distributedStackForBlock, embeddedConfig, startEmbeddedVault } from './stack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** An operator's command as they run it: `script` (from the repository root) with `env` added. */
function command(script: string, args: string[], env: Record<string, string>, input = '') {
  return spawnSync(process.execPath, [join(root, script), ...args], { input, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
}

/** The CLI against the embedded data folder. */
const cli = (dataDir: string, args: string[], input = '') =>
  command('apps/vault/dist/cli.js', args, { VAULT_MODE: 'embedded', VAULT_DATA_DIR: dataDir }, input);

const FACTOR_TABLES = 'select (select count(*) from auth.second_factors)::int as factors, (select count(*) from auth.recovery_codes)::int as codes';

/** Enrols a factor, then self-destructs with the fresh sign-in: auth-svc's erase must take the factors and codes too. */
async function enrolAndDestroy(url: string) {
  const owner = new ApiClient(url);
  expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
  await enrolTotp(owner);
  const destroyed = await owner.request('POST', '/api/settings/self-destruct');
  expect([destroyed.status, destroyed.json]).toEqual([200, { destroyed: true }]);
}

describe('second factor: embedded mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vault-second-factor-'));
  let vault: Awaited<ReturnType<typeof startEmbeddedVault>>;

  beforeAll(async () => {
    vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir }));
  });

  afterAll(async () => {
    await vault?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describeSecondFactor({ url: () => vault.url, clock: () => vault.app.get(Clock) });

  it('lets the operator remove every factor with reset-second-factor, once confirmed', async () => {
    const owner = new ApiClient(vault.url);
    await owner.login(OWNER.username, OWNER.password);
    await enrolTotp(owner);
    expect((await new ApiClient(vault.url).login(OWNER.username, OWNER.password)).status).toBe(202);
    await vault.close();
    const declined = cli(dataDir, ['reset-second-factor'], 'no\n');
    expect([declined.status, declined.stderr.trim()]).toEqual([2, 'Nothing changed.']);
    const reset = cli(dataDir, ['reset-second-factor', '--yes']);
    expect([reset.status, reset.stdout.trim()]).toEqual([0, expect.stringMatching(/^Removed 1 second factor and the recovery codes\./)]);
    vault = await startEmbeddedVault(embeddedConfig({ VAULT_DATA_DIR: dataDir }));
    expect((await new ApiClient(vault.url).login(OWNER.username, OWNER.password)).status).toBe(200);
  });

  // Last: it ends this vault.
  it('erases every factor and recovery code at a self-destruct', async () => {
    await enrolAndDestroy(vault.url);
    await vault.close();
    const connection = await openConnection({ kind: 'embedded', dataDir });
    try {
      const pool = connection.kind === 'postgres' ? connection.pool : undefined;
      expect((await pool!.query(FACTOR_TABLES)).rows).toEqual([{ factors: 0, codes: 0 }]);
    } finally {
      await connection.close();
    }
  });
});

describe('second factor: distributed mode', () => {
  const running = distributedStackForBlock();

  describeSecondFactor({ url: () => running().stack.url, clock: () => running().stack.apps().gateway.get(Clock) });

  it('keeps a pending sign-in in Redis, apart from the sessions, for five minutes at most', async () => {
    const owner = new ApiClient(running().stack.url);
    await owner.login(OWNER.username, OWNER.password);
    const { id } = await enrolTotp(owner);
    expect((await new ApiClient(running().stack.url).login(OWNER.username, OWNER.password)).status).toBe(202);
    const keys = await running().stack.redisKeys('vault:pending-sign-in:*');
    expect(keys.length).toBeGreaterThan(0);
    const { Redis } = await import('ioredis');
    const client = new Redis(running().stack.config.REDIS_URL!);
    try {
      const ttl = await client.pttl(keys[0]);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(300_000);
    } finally {
      client.disconnect();
    }
    expect((await owner.request('DELETE', `/api/second-factor/${id}`, { password: OWNER.password })).status).toBe(200);
  });

  it("lets the operator remove every factor with auth-svc's reset-second-factor --yes", async () => {
    const owner = new ApiClient(running().stack.url);
    await owner.login(OWNER.username, OWNER.password);
    await enrolTotp(owner);
    const env = { VAULT_MODE: 'distributed', DATABASE_URL: running().db.url, LOG_LEVEL: 'warn' };
    const unconfirmed = command('apps/auth-svc/dist/main.js', ['reset-second-factor'], env);
    expect([unconfirmed.status, unconfirmed.stderr.trim()]).toEqual([2, expect.stringContaining('run it with --yes')]);
    expect((await new ApiClient(running().stack.url).login(OWNER.username, OWNER.password)).status).toBe(202);
    const reset = command('apps/auth-svc/dist/main.js', ['reset-second-factor', '--yes'], env);
    expect([reset.status, reset.stdout.trim()]).toEqual([0, expect.stringMatching(/^Removed 1 second factor and the recovery codes\./)]);
    expect((await new ApiClient(running().stack.url).login(OWNER.username, OWNER.password)).status).toBe(200);
  });

  // Last: it ends this vault.
  it('erases every factor, recovery code and pending sign-in at a self-destruct', async () => {
    await enrolAndDestroy(running().stack.url);
    expect(await running().db.query(FACTOR_TABLES)).toEqual([{ factors: 0, codes: 0 }]);
    expect(await running().stack.redisKeys('vault:pending-sign-in:*')).toEqual([]);
  });
});
