// The vault's services for the scripts: the one list in
// libs/contracts/src/services.ts, read from its compiled file. A fresh clone
// has none yet, so @vault/contracts is compiled first (a few seconds; no
// dependency of its own but zod).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const compiled = new URL('../../libs/contracts/dist/services.js', import.meta.url);

if (!existsSync(compiled)) {
  const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'libs/contracts'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('libs/contracts could not be compiled: the scripts read the list of services from it');
}

/** @type {typeof import('../../libs/contracts/src/services.js')} */
const services = await import(compiled.href);

export const { VAULT_SERVICES, SERVICE_NAMES, DISTRIBUTED_APPS, databaseVariableOf } = services;
