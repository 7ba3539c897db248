import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_NAMES } from '@vault/contracts';
import { createTestDatabase, testServers, type TestDatabase } from '@vault/testing';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { applyMigrations, openConnection, PROVISION_SERVICE_ROLES_SQL, provisionServiceRoles, serviceRoleName, type ServiceRole } from '../src/index.js';

/**
 * A database role per service (issue 13, finding 10; must-show 8): each
 * service's role migrates and uses its own schema, and every attempt on
 * another service's schema, tables or migration table is refused.
 */

const SERVICES = SERVICE_NAMES;
const root = fileURLToPath(new URL('../../..', import.meta.url));
const migrationsOf = (service: string) => `${root}libs/${service}/migrations`;
const journalLength = (service: string) =>
  (JSON.parse(readFileSync(`${migrationsOf(service)}/meta/_journal.json`, 'utf8')) as { entries: unknown[] }).entries.length;

/** Roles are global to the server: each database of this run gets its own, dropped after. */
const createdRoles: string[] = [];
function rolesFor(db: TestDatabase): ServiceRole[] {
  const roles = SERVICES.map((schema) => ({ schema, role: serviceRoleName(db.name, schema), password: randomBytes(18).toString('base64url') }));
  createdRoles.push(...roles.map((r) => r.role));
  return roles;
}

function urlAs(db: TestDatabase, role: ServiceRole): string {
  const url = new URL(db.url);
  url.username = role.role;
  url.password = role.password;
  return url.toString();
}

async function asAdmin<T>(db: TestDatabase, task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

async function asRole<T>(db: TestDatabase, role: ServiceRole, task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlAs(db, role) });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

async function migrateAs(db: TestDatabase, role: ServiceRole): Promise<void> {
  const connection = await openConnection({ kind: 'postgres', url: urlAs(db, role), poolSize: 1 });
  try {
    await applyMigrations(connection, { schema: role.schema, folder: migrationsOf(role.schema) });
  } finally {
    await connection.close();
  }
}

/** The error of a statement that must fail; undefined when it succeeded. */
async function errorOf(client: pg.Client, sql: string): Promise<string | undefined> {
  try {
    await client.query(sql);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

async function tablesOf(db: TestDatabase, schema: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1 order by 1', [schema]);
  return rows.map((r) => r.name);
}

/**
 * What another role must not be able to do to service `b`'s schema, with the
 * refusal expected. Without USAGE on the schema, every name in it is refused
 * before the object is even looked at; the shared migrations schema can be
 * entered, but each table in it belongs to its service alone.
 */
async function attemptsOn(db: TestDatabase, b: ServiceRole): Promise<Array<[string, RegExp]>> {
  const denied = /permission denied/;
  const attempts: Array<[string, RegExp]> = [
    [`create table "${b.schema}".intruder (id int)`, denied],
    [`create view "${b.schema}".intruder as select 1`, denied],
    [`create function "${b.schema}".intruder() returns int language sql as 'select 1'`, denied],
    [`alter schema "${b.schema}" rename to intruder`, /permission denied|must be owner/],
    [`select * from vault_migrations."${b.schema}"`, denied],
    [`insert into vault_migrations."${b.schema}" (hash, created_at) values ('forged', 9999999999999)`, denied],
    [`update vault_migrations."${b.schema}" set hash = 'forged'`, denied],
    [`delete from vault_migrations."${b.schema}"`, denied],
    [`truncate vault_migrations."${b.schema}"`, denied],
    // Dropping needs ownership, not a privilege: PostgreSQL words that refusal differently.
    [`drop table vault_migrations."${b.schema}"`, /must be owner of table/],
  ];
  for (const table of await tablesOf(db, b.schema)) {
    const name = `"${b.schema}"."${table}"`;
    const [{ column }] = await db.query<{ column: string }>('select attname as column from pg_attribute where attrelid = $1::regclass and attnum = 1', [name]);
    attempts.push(
      [`select * from ${name}`, denied],
      [`insert into ${name} default values`, denied],
      [`update ${name} set "${column}" = "${column}"`, denied],
      [`delete from ${name}`, denied],
      [`truncate ${name}`, denied],
      [`drop table ${name}`, denied],
      [`alter table ${name} add column intruder int`, denied],
      [`create index intruder on ${name} ("${column}")`, denied],
    );
  }
  return attempts;
}

describe('a database role per service', () => {
  let db: TestDatabase;
  let roles: ServiceRole[];

  beforeAll(async () => {
    db = await createTestDatabase();
    roles = rolesFor(db);
    await asAdmin(db, (admin) => provisionServiceRoles(admin, roles));
    for (const role of roles) await migrateAs(db, role);
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('are login roles without superuser, createdb, createrole, replication or membership', async () => {
    const rows = await db.query(
      `select rolname, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolcanlogin,
              (select count(*)::int from pg_auth_members m where m.member = r.oid) as memberships
         from pg_roles r where rolname = any($1) order by rolname`,
      [roles.map((r) => r.role)],
    );
    expect(rows).toEqual(
      roles
        .map((r) => ({
          rolname: r.role,
          rolsuper: false,
          rolcreatedb: false,
          rolcreaterole: false,
          rolreplication: false,
          rolbypassrls: false,
          rolcanlogin: true,
          memberships: 0,
        }))
        .sort((x, y) => x.rolname.localeCompare(y.rolname)),
    );
  });

  it("each service's migrations ran as its own role, which owns its schema, everything in it and its migration table", async () => {
    for (const role of roles) {
      const owners = await db.query<{ owner: string }>(
        `select distinct pg_get_userbyid(c.relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1
         union select pg_get_userbyid(nspowner) from pg_namespace where nspname = $1
         union select pg_get_userbyid(c.relowner) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'vault_migrations' and c.relname like $1 || '%'`,
        [role.schema],
      );
      expect([role.schema, owners.map((o) => o.owner)]).toEqual([role.schema, [role.role]]);
      expect((await tablesOf(db, role.schema)).length).toBeGreaterThan(0);
      const [{ n }] = await db.query<{ n: number }>(`select count(*)::int as n from vault_migrations."${role.schema}"`);
      expect([role.schema, n]).toEqual([role.schema, journalLength(role.schema)]);
    }
  });

  it('migrating again as the role applies nothing more', async () => {
    for (const role of roles) await migrateAs(db, role);
    for (const role of roles) {
      const [{ n }] = await db.query<{ n: number }>(`select count(*)::int as n from vault_migrations."${role.schema}"`);
      expect([role.schema, n]).toEqual([role.schema, journalLength(role.schema)]);
    }
  });

  it('each role reads, writes and creates in its own schema', async () => {
    for (const role of roles) {
      await asRole(db, role, async (client) => {
        for (const table of await tablesOf(db, role.schema)) await client.query(`select * from "${role.schema}"."${table}" limit 1`);
        await client.query(`create table "${role.schema}".probe (id int)`);
        await client.query(`insert into "${role.schema}".probe values (1)`);
        expect((await client.query(`select id from "${role.schema}".probe`)).rows).toEqual([{ id: 1 }]);
        await client.query(`drop table "${role.schema}".probe`);
        expect((await client.query(`select count(*)::int as n from vault_migrations."${role.schema}"`)).rows[0].n).toBe(journalLength(role.schema));
      });
    }
  });

  it("each role is refused every other service's schema, tables and migration table, and anything new elsewhere", async () => {
    let refused = 0;
    for (const a of roles) {
      await asRole(db, a, async (client) => {
        const elsewhere = [
          'create schema intruder',
          'create table public.intruder (id int)',
          'create table vault_migrations.intruder (id int)',
          `alter schema "${a.schema}" rename to intruder`, // owning a schema is not the right to rename it: that needs CREATE on the database
        ];
        for (const sql of elsewhere) {
          expect([a.role, sql, await errorOf(client, sql)]).toEqual([a.role, sql, expect.stringMatching(/permission denied/)]);
          refused++;
        }
        for (const b of roles.filter((r) => r !== a)) {
          for (const [sql, refusal] of await attemptsOn(db, b)) {
            expect([a.role, sql, await errorOf(client, sql)]).toEqual([a.role, sql, expect.stringMatching(refusal)]);
            refused++;
          }
        }
      });
    }
    expect(refused).toBeGreaterThan(5 * 4 * 10);
  });

  it('is what the trial chart runs: the same SQL, word for word', () => {
    const template = readFileSync(`${root}deploy/helm/templates/trial-postgres.yaml`, 'utf8');
    const match = /BEGIN PROVISION_SERVICE_ROLES_SQL[^\n]*\n([\s\S]*?)\n[ \t]*\{\{- \/\* END PROVISION_SERVICE_ROLES_SQL/.exec(template);
    expect(match).not.toBeNull();
    const lines = match![1].split('\n');
    const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
    expect(
      lines
        .map((l) => l.slice(indent))
        .join('\n')
        .trim(),
    ).toBe(PROVISION_SERVICE_ROLES_SQL.trim());
  });

  it('is what compose.distributed.yaml runs: the same SQL, word for word', () => {
    expect(readFileSync(`${root}deploy/compose/provision-service-roles.sql`, 'utf8').trim()).toBe(PROVISION_SERVICE_ROLES_SQL.trim());
  });
});

describe('a database the services used as a superuser, then given their roles', () => {
  let db: TestDatabase;
  let roles: ServiceRole[];

  beforeAll(async () => {
    db = await createTestDatabase();
    // The layout of the previous version: everything made and owned by the superuser, drizzle's own migrator.
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      for (const service of SERVICES) {
        await migrate(drizzle({ client: pool }), { migrationsFolder: migrationsOf(service), migrationsSchema: 'vault_migrations', migrationsTable: service });
      }
      await pool.query("insert into planner.targets (title) values ('kept across the upgrade')");
    } finally {
      await pool.end();
    }
    roles = rolesFor(db);
    await asAdmin(db, (admin) => provisionServiceRoles(admin, roles));
    // Twice: the provisioning is idempotent.
    await asAdmin(db, (admin) => provisionServiceRoles(admin, roles));
    for (const role of roles) await migrateAs(db, role);
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('keeps every row and applies no migration twice', async () => {
    for (const role of roles) {
      const [{ n }] = await db.query<{ n: number }>(`select count(*)::int as n from vault_migrations."${role.schema}"`);
      expect([role.schema, n]).toEqual([role.schema, journalLength(role.schema)]);
    }
    const planner = roles.find((r) => r.schema === 'planner')!;
    const rows = await asRole(db, planner, async (client) => (await client.query('select title from planner.targets')).rows);
    expect(rows).toEqual([{ title: 'kept across the upgrade' }]);
  });

  it('hands each schema and its migration table to the role, and refuses the others', async () => {
    const planner = roles.find((r) => r.schema === 'planner')!;
    for (const a of roles.filter((r) => r !== planner)) {
      await asRole(db, a, async (client) => {
        for (const [sql, refusal] of await attemptsOn(db, planner)) {
          expect([a.role, sql, await errorOf(client, sql)]).toEqual([a.role, sql, expect.stringMatching(refusal)]);
        }
      });
    }
    await asRole(db, planner, async (client) => {
      await client.query("insert into planner.targets (title) values ('written by its role')");
      expect((await client.query('select count(*)::int as n from planner.targets')).rows[0].n).toBe(2);
    });
  });
});

afterAll(async () => {
  // The databases are gone (each spec drops its own); now the roles can go too.
  if (createdRoles.length === 0) return;
  const admin = new pg.Client({ connectionString: testServers().databaseUrl });
  await admin.connect();
  try {
    for (const role of createdRoles) await admin.query(`drop role if exists "${role}"`);
  } finally {
    await admin.end();
  }
});
