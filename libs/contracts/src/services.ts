/**
 * The services of the vault, the one list the host, the scripts, the chart's
 * tests and the boundaries check read (scripts read the compiled file through
 * scripts/lib/services.mjs). Adding a service starts here: docs/development.md,
 * "Adding a service", lists the rest.
 *
 * - `name`: the domain, as RPC patterns (`planner.targets.list`) and the
 *   chart's values (`services.planner`) spell it.
 * - `app`: its process and image (`apps/planner-svc`, `vault-planner-svc`),
 *   also its NATS queue group and its durable event consumers' name.
 * - `schema`: its PostgreSQL schema, in its own database or the shared one.
 * - `healthPortOffset`: where a local distributed stack puts its health and
 *   metrics port, after the gateway's PORT (`npm run start:distributed`).
 */
export const VAULT_SERVICES = [
  { name: 'auth', app: 'auth-svc', schema: 'auth', healthPortOffset: 101 },
  { name: 'planner', app: 'planner-svc', schema: 'planner', healthPortOffset: 102 },
  { name: 'journal', app: 'journal-svc', schema: 'journal', healthPortOffset: 103 },
  { name: 'media', app: 'media-svc', schema: 'media', healthPortOffset: 104 },
  { name: 'audit', app: 'audit-svc', schema: 'audit', healthPortOffset: 105 },
] as const;

export type VaultService = (typeof VAULT_SERVICES)[number];
export type ServiceName = VaultService['name'];

/** The variable of a service's own database URL in distributed mode: `PLANNER_DATABASE_URL` (else `DATABASE_URL`). */
export type DatabaseVariable = `${Uppercase<ServiceName>}_DATABASE_URL`;
export function databaseVariableOf(service: ServiceName): DatabaseVariable {
  return `${service.toUpperCase()}_DATABASE_URL` as DatabaseVariable;
}

/** The five domain names, in the list's order. */
export const SERVICE_NAMES: readonly ServiceName[] = VAULT_SERVICES.map((service) => service.name);

/** Every process of the distributed mode: the gateway and the services' apps. */
export const DISTRIBUTED_APPS: readonly string[] = ['gateway', ...VAULT_SERVICES.map((service) => service.app)];
