#!/usr/bin/env node
// `npm start`: installs what is missing, builds, and opens the vault in
// embedded mode: one process on PORT (3000), data under VAULT_DATA_DIR (./data).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './lib/build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await ensureBuilt(root);
const child = spawn(process.execPath, ['apps/vault/dist/main.js'], {
  cwd: root,
  env: { ...process.env, VAULT_MODE: 'embedded' },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
