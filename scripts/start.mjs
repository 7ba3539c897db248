#!/usr/bin/env node
// `npm start`: installs what is missing, builds, and opens the vault in
// embedded mode: one process (and the PostgreSQL server it starts) on PORT (3000),
// data under VAULT_DATA_DIR (./data).
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './lib/build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await ensureBuilt(root);
// Should this launcher die, even by SIGKILL, the vault gets SIGTERM and closes (stopping its PostgreSQL server) instead of
// running on unattended: `setpriv --pdeathsig` (util-linux, Linux) where it works.
const guard = process.platform === 'linux' && spawnSync('setpriv', ['--pdeathsig', 'TERM', 'true'], { stdio: 'ignore' }).status === 0;
const [command, ...args] = [...(guard ? ['setpriv', '--pdeathsig', 'TERM'] : []), process.execPath, 'apps/vault/dist/bundle/main.js'];
const child = spawn(command, args, {
  cwd: root,
  env: { ...process.env, VAULT_MODE: 'embedded' },
  stdio: 'inherit',
});
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
