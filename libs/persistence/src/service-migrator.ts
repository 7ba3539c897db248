import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Database } from './database.js';

/** Every service keeps its own migration table here, named after its schema. */
export const MIGRATIONS_SCHEMA = 'vault_migrations';

export interface ServiceMigrations {
  /** The Postgres schema the service owns, e.g. `planner`. */
  schema: string;
  /** The folder drizzle-kit generated for that service. */
  folder: string;
}

export interface MigrationOptions {
  /**
   * Apply only the migrations up to this one (its `created_at`, drizzle-kit's
   * folderMillis): the import of a PGlite database rebuilds its schemas at the
   * level the old rows were written at, and the start applies the rest.
   */
  until?: number;
}

type Rows = { rows: Array<Record<string, unknown>> };
const rowsOf = async (db: Pick<Database, 'execute'>, query: SQL) => ((await db.execute(query)) as unknown as Rows).rows;
const exists = async (db: Pick<Database, 'execute'>, query: SQL) => (await rowsOf(db, query)).length > 0;

/** Whether a migration made at `millis` (drizzle-kit's folderMillis) is within `options.until`. */
const withinUntil = (options: MigrationOptions) => (millis: number) => options.until === undefined || millis <= options.until;
/** A service's migrations up to `options.until`, as drizzle-kit wrote them. */
const migrationFiles = (folder: string, options: MigrationOptions) =>
  readMigrationFiles({ migrationsFolder: folder }).filter((migration) => withinUntil(options)(migration.folderMillis));
/**
 * When the newest of them was made (drizzle-kit's journal's `when`, which
 * drizzle's migrator records as folderMillis), 0 with none: from the journal
 * alone. readMigrationFiles also reads and hashes every SQL file, which a
 * start with nothing to apply does not need (issue 37).
 */
const newestMigration = (folder: string, options: MigrationOptions) => {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> };
  return Math.max(0, ...journal.entries.map((entry) => entry.when).filter(withinUntil(options)));
};
/** The service's bookkeeping table in the migrations schema. */
const migrationTable = (schema: string) => sql`${sql.identifier(MIGRATIONS_SCHEMA)}.${sql.identifier(schema)}`;
const migrationTableExists = (db: Pick<Database, 'execute'>, schema: string) =>
  exists(db, sql`select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${MIGRATIONS_SCHEMA} and c.relname = ${schema}`);
/** The `created_at` (drizzle-kit's folderMillis) of the newest migration recorded; undefined when none is. */
const lastRecorded = async (db: Pick<Database, 'execute'>, schema: string) => {
  const [last] = await rowsOf(db, sql`select created_at from ${migrationTable(schema)} order by created_at desc limit 1`);
  return last ? Number(last.created_at) : undefined;
};

/**
 * Drizzle's migrator (same files, same bookkeeping table, same rule: apply
 * every migration newer than the last one recorded, in one transaction), but
 * asking only for what a service's own role may do (docs/adr/0008):
 *
 * - the migrations schema and the service's table in it are created only when
 *   missing: the provisioning makes them for the role, which may not create
 *   in the database or in vault_migrations (`CREATE ... IF NOT EXISTS` checks
 *   that right even when the object exists);
 * - the first migration's `CREATE SCHEMA "<schema>"` is skipped when the
 *   schema exists: the provisioning made it, owned by the role;
 * - whoever runs them (an operator as superuser, say), the objects a
 *   migration makes belong to the schema's owner: the migration runs as that
 *   role when the caller may become it.
 *
 * Call it under the advisory lock of applyMigrations on PostgreSQL.
 */
export async function runServiceMigrations(db: Database, { schema, folder }: ServiceMigrations, options: MigrationOptions = {}): Promise<void> {
  const files = migrationFiles(folder, options);
  const table = migrationTable(schema);
  if (!(await exists(db, sql`select 1 from pg_namespace where nspname = ${MIGRATIONS_SCHEMA}`))) {
    await db.execute(sql`create schema if not exists ${sql.identifier(MIGRATIONS_SCHEMA)}`);
  }
  if (!(await migrationTableExists(db, schema))) {
    await db.execute(sql`create table if not exists ${table} (id serial primary key, hash text not null, created_at bigint)`);
  }
  const last = await lastRecorded(db, schema);
  const pending = files.filter((migration) => last === undefined || last < migration.folderMillis);
  if (pending.length === 0) return;

  await db.transaction(async (tx) => {
    const [owner] = await rowsOf(
      tx,
      sql`select r.rolname from pg_namespace n join pg_roles r on r.oid = n.nspowner
           where n.nspname = ${schema} and r.rolname <> current_user and pg_has_role(current_user, r.oid, 'MEMBER')`,
    );
    if (owner) await tx.execute(sql`set local role ${sql.identifier(String(owner.rolname))}`);
    const schemaExists = await exists(tx, sql`select 1 from pg_namespace where nspname = ${schema}`);
    for (const migration of pending) {
      for (const statement of migration.sql) {
        const text = schemaExists ? withoutCreateSchema(statement, schema) : statement;
        if (text.trim()) await tx.execute(sql.raw(text));
      }
      await tx.execute(sql`insert into ${table} ("hash", "created_at") values (${migration.hash}, ${migration.folderMillis})`);
    }
  });
}

/**
 * Whether a service's migrations (up to `options.until`) are all recorded
 * already: its table in the migrations schema exists and its newest entry
 * is at least the newest migration's. Two reads, no lock: a restart, where
 * nothing is pending, need not wait for every other service's turn under
 * the migration lock (issue 37: the embedded vault's five services took it
 * one after another, about 100 ms of its restart). A migration being applied
 * meanwhile is not committed, so this sees it pending and the caller takes
 * the lock, under which runServiceMigrations looks again.
 */
export async function migrationsApplied(
  db: Pick<Database, 'execute'>,
  { schema, folder }: ServiceMigrations,
  options: MigrationOptions = {},
): Promise<boolean> {
  const newest = newestMigration(folder, options);
  if (newest === 0) return true;
  if (!(await migrationTableExists(db, schema))) return false;
  const last = await lastRecorded(db, schema);
  return last !== undefined && last >= newest;
}

/** The statement chunk without drizzle-kit's `CREATE SCHEMA "<schema>";` line. */
function withoutCreateSchema(statement: string, schema: string): string {
  const quoted = `"${schema.replaceAll('"', '""')}"`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return statement.replace(new RegExp(`^\\s*CREATE SCHEMA (IF NOT EXISTS )?${quoted}\\s*;?\\s*$`, 'gim'), '');
}
