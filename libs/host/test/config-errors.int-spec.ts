import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

const database = (service: string) => `${service.toUpperCase()}_DATABASE_URL or DATABASE_URL: required in distributed mode`;

/** Every entry point, as built, and the whole list it owes an operator started with nothing configured. */
const ENTRY_POINTS: Array<{ app: string; args?: string[]; expected: string[] }> = [
  {
    app: 'vault/dist/main.js',
    expected: [
      'VAULT_MODE: the vault process runs the embedded mode only (the distributed mode runs apps/gateway and the apps/*-svc services: npm run start:distributed)',
    ],
  },
  { app: 'gateway/dist/main.js', expected: ['REDIS_URL: required by the gateway in distributed mode'] },
  { app: 'auth-svc/dist/main.js', expected: [database('auth')] },
  { app: 'planner-svc/dist/main.js', expected: [database('planner')] },
  {
    app: 'journal-svc/dist/main.js',
    expected: [database('journal'), 'VAULT_MASTER_KEY: required by journal-svc in distributed mode (openssl rand -base64 32)'],
  },
  {
    app: 'media-svc/dist/main.js',
    expected: [
      database('media'),
      'S3_ENDPOINT: required by media-svc in distributed mode',
      'S3_ACCESS_KEY_ID: required by media-svc in distributed mode',
      'S3_SECRET_ACCESS_KEY: required by media-svc in distributed mode',
    ],
  },
  { app: 'audit-svc/dist/main.js', expected: [database('audit')] },
  // The CLI's commands open the owner's database: in distributed mode, auth-svc's.
  { app: 'vault/dist/cli.js', args: ['set-password'], expected: [database('auth')] },
];

function start(app: string, args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [join(root, 'apps', app), ...args], {
    // Nothing but the mode (and PATH, which node needs to find nothing else): an empty environment.
    env: { PATH: process.env.PATH ?? '', ...env },
    input: '',
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('start-up with an invalid configuration', () => {
  it.each(ENTRY_POINTS)('$app lists every missing variable for the distributed mode, one line each, and no stack', ({ app, args = [], expected }) => {
    const run = start(app, args, { VAULT_MODE: 'distributed' });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr: `Invalid configuration:\n${expected.map((line) => `  - ${line}\n`).join('')}`,
    });
  });

  it.each(ENTRY_POINTS.filter(({ app }) => app !== 'vault/dist/main.js'))(
    '$app lists a bad value together with what is missing',
    ({ app, args = [], expected }) => {
      const run = start(app, args, { VAULT_MODE: 'distributed', PORT: 'eighty', RPC_TIMEOUT_MS: '5' });
      expect(run.status).toBe(1);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe('Invalid configuration:');
      expect(lines.slice(1).map((line) => line.replace(/^ {2}- /, '').split(':')[0])).toEqual([
        'PORT',
        'RPC_TIMEOUT_MS',
        ...expected.map((line) => line.split(':')[0]),
      ]);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    },
  );
});
