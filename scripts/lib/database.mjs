import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { VAULT_SERVICES, databaseVariableOf } from './services.mjs';

/** Creates the database named in the URL when the server lacks it (a first distributed run). */
export async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount === 0) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Gives each service its own login role in the database of `adminUrl` (whose
 * user must be a superuser), owning its schema only, and returns the
 * services' <SERVICE>_DATABASE_URL. The roles are named after the database
 * (vault_planner in `vault`), so that vaults sharing a server never share
 * roles. Every run sets new passwords: nothing to store, and the URLs live
 * only in the processes started with them. Needs the workspace built.
 */
export async function provisionServiceDatabases(adminUrl) {
  const { provisionServiceRoles, serviceRoleName } = await import('@vault/persistence');
  const database = decodeURIComponent(new URL(adminUrl).pathname.slice(1));
  // Each service that owns a schema connects as its own role (docs/adr/0008).
  const roles = VAULT_SERVICES.map(({ name, schema }) => ({
    name,
    schema,
    role: serviceRoleName(database, schema),
    password: randomBytes(24).toString('base64url'),
  }));
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    await provisionServiceRoles(admin, roles);
  } finally {
    await admin.end();
  }
  return Object.fromEntries(
    roles.map(({ name, role, password }) => {
      const url = new URL(adminUrl);
      url.username = role;
      url.password = password;
      return [databaseVariableOf(name), url.toString()];
    }),
  );
}
