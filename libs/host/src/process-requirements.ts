import { databaseVariableOf, type ServiceName } from '@vault/contracts';
import { presentVar } from '@vault/platform';

export type { ServiceName };

/** The vault's processes: the embedded one, its CLI, and the distributed mode's gateway and services. */
export type VaultProcess = 'vault' | 'cli' | 'gateway' | `${ServiceName}-svc`;

/** A variable (or one of several) that a process cannot run without, and the line an operator reads when none is set. */
export interface Requirement {
  anyOf: string[];
  problem: string;
}

export const requirements = {
  database: (service: ServiceName): Requirement => ({
    anyOf: [databaseVariableOf(service), 'DATABASE_URL'],
    problem: `${databaseVariableOf(service)} or DATABASE_URL: required in distributed mode`,
  }),
  redis: { anyOf: ['REDIS_URL'], problem: 'REDIS_URL: required by the gateway in distributed mode' },
  masterKey: { anyOf: ['VAULT_MASTER_KEY'], problem: 'VAULT_MASTER_KEY: required by journal-svc in distributed mode (openssl rand -base64 32)' },
  newMasterKey: { anyOf: ['VAULT_NEW_MASTER_KEY'], problem: 'VAULT_NEW_MASTER_KEY: required by rotate-master-key (openssl rand -base64 32)' },
  s3: (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).map(
    (name): Requirement => ({ anyOf: [name], problem: `${name}: required by media-svc in distributed mode` }),
  ),
} satisfies Record<string, unknown>;

export const NOT_EMBEDDED =
  'VAULT_MODE: the vault process runs the embedded mode only (the distributed mode runs apps/gateway and the apps/*-svc services: npm run start:distributed)';

/**
 * What one process needs in a mode, for the command it was started with
 * (`migrate` needs only the database; `rotate-master-key` both master keys).
 * The gateway and the services exist only in the distributed mode, so their
 * needs do not depend on VAULT_MODE.
 */
export function requirementsOf(process: VaultProcess, mode: 'embedded' | 'distributed', command?: string): Requirement[] {
  if (process === 'vault' || process === 'cli') return mode === 'distributed' && process === 'cli' ? [requirements.database('auth')] : [];
  // A backup (dist/backup.js) and a journal import (dist/import-journal.js) talk to the services over NATS only: no sessions, so no Redis.
  if (process === 'gateway') return command === 'backup' || command === 'import-journal' ? [] : [requirements.redis];
  const service = process.slice(0, -'-svc'.length) as ServiceName;
  const database = requirements.database(service);
  if (command === 'migrate') return [database];
  if (service === 'journal')
    return command === 'rotate-master-key' ? [database, requirements.masterKey, requirements.newMasterKey] : [database, requirements.masterKey];
  if (service === 'media') return [database, ...requirements.s3];
  return [database];
}

/** The lines of the requirements that the environment leaves unmet. */
export function unmet(needed: Requirement[], env: NodeJS.ProcessEnv): string[] {
  return needed.filter((need) => need.anyOf.every((name) => presentVar(env, name) === undefined)).map((need) => need.problem);
}
