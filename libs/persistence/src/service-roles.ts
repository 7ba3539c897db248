import type pg from 'pg';
import { PROVISION_SERVICE_ROLES_SQL } from './service-roles.sql.js';

export { PROVISION_SERVICE_ROLES_SQL } from './service-roles.sql.js';

/** A service's own login role: it owns `schema` (and its migration table) and nothing else. */
export interface ServiceRole {
  /** The Postgres schema the service owns, e.g. `planner`. */
  schema: string;
  /** The login role, e.g. `vault_planner`. */
  role: string;
  password: string;
}

/** PostgreSQL cuts longer names silently; two services could then share a role. */
const MAX_NAME_BYTES = 63;

/**
 * The role of a service in a database: `<database>_<schema>` (vault_planner
 * in the database `vault`). Roles belong to the whole server, so naming them
 * after the database keeps two vaults on one server (a developer's and a
 * test run's) from sharing, or re-keying, each other's roles.
 */
export function serviceRoleName(database: string, schema: string): string {
  const name = `${database}_${schema}`;
  if (Buffer.byteLength(name) > MAX_NAME_BYTES)
    throw new Error(`The role name ${name} is longer than PostgreSQL's ${MAX_NAME_BYTES} bytes: use a shorter database name`);
  return name;
}

/**
 * Creates (or brings back in line) one login role per service on the
 * database `admin` is connected to, as a superuser: each role owns its
 * schema and its table in vault_migrations, may connect, and has no other
 * right (docs/adr/0008). Everything or nothing: one transaction.
 */
export async function provisionServiceRoles(admin: pg.ClientBase, roles: ServiceRole[]): Promise<void> {
  for (const { schema, role, password } of roles) {
    if (!schema || !role || !password) throw new Error('Each service role needs a schema, a role name and a password');
    if (Buffer.byteLength(role) > MAX_NAME_BYTES || Buffer.byteLength(schema) > MAX_NAME_BYTES)
      throw new Error(`Name too long for PostgreSQL: ${role} / ${schema}`);
  }
  await admin.query('begin');
  try {
    // Local to the transaction: the passwords leave with it.
    await admin.query("select set_config('vault.service_roles', $1, true)", [JSON.stringify(roles)]);
    await admin.query(PROVISION_SERVICE_ROLES_SQL);
    await admin.query('commit');
  } catch (error) {
    await admin.query('rollback').catch(() => undefined);
    throw error;
  }
}
