#!/usr/bin/env node
// `npm start`: installs what is missing, builds, and opens the vault in
// embedded mode: one process (and the PostgreSQL server it starts) on PORT (3000),
// data under VAULT_DATA_DIR (./data), with this shell's environment as it is.
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './lib/build.mjs';

await ensureBuilt(fileURLToPath(new URL('..', import.meta.url)));
// Loaded once built: the launcher reads the services' list from the compiled contracts, which need TypeScript (a fresh clone has neither).
const { embeddedMode, spawnApp } = await import('./lib/vault-launcher.mjs');
// The launcher gives the vault SIGTERM should this process die, even by SIGKILL, so that it closes (stopping its PostgreSQL server).
const [app] = embeddedMode({}).apps;
const child = spawnApp(app, { environment: 'inherit', stdio: 'inherit' });
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
