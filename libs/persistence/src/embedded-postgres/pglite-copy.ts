import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/node-postgres';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import type { Database } from '../database.js';
import { MIGRATIONS_SCHEMA, runServiceMigrations, type ServiceMigrations } from '../service-migrator.js';

export interface ImportSummary {
  tables: number;
  rows: number;
  sequences: number;
}

type Query = (text: string, values?: unknown[]) => Promise<unknown[][]>;

/** The same text for a value on both sides: these are PGlite's defaults, set on both sessions. */
const SESSION = [
  "set timezone to 'UTC'",
  "set datestyle to 'ISO, MDY'",
  "set intervalstyle to 'postgres'",
  'set extra_float_digits to 1',
  "set bytea_output to 'hex'",
];
const BATCH = 500;

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
const qualified = (schema: string, name: string) => `${quote(schema)}.${quote(name)}`;

/**
 * Copies every row of a PGlite vault into PostgreSQL's `vault` database:
 *
 * 1. each service's schema is made on the target by its own migrations, up
 *    to the last one the PGlite database recorded (no further: the old rows
 *    fit that shape; the start applies the rest);
 * 2. in ONE transaction, with triggers and foreign keys off
 *    (session_replication_role = replica): every table of those schemas and
 *    of vault_migrations is emptied (migrations seed rows) and filled with
 *    the source's rows, each value carried as its text form and cast back
 *    to its column's type (lossless for every type; a JavaScript round trip
 *    would cut timestamps to milliseconds); sequences are set to the source's
 *    positions;
 * 3. before the commit, per table: the row count and an md5 of all its rows'
 *    text in byte order must be equal on both sides.
 *
 * Any difference throws, and the transaction is rolled back.
 */
export async function copyPglite(lite: PGlite, target: pg.Client, services: ServiceMigrations[]): Promise<ImportSummary> {
  const source: Query = async (text, values) => (await lite.query<unknown[]>(text, values, { rowMode: 'array' })).rows;
  const sink: Query = async (text, values) => (await target.query<unknown[]>({ text, values, rowMode: 'array' })).rows;
  for (const statement of SESSION) {
    await source(statement);
    await sink(statement);
  }
  const schemas = [...services.map((s) => s.schema), MIGRATIONS_SCHEMA];

  const sourceRelations = await relations(source);
  const unknown = sourceRelations.filter((r) => !schemas.includes(r.schema));
  if (unknown.length > 0) {
    throw new Error(
      `The PGlite database holds tables no service of this vault owns: ${unknown.map((r) => `${r.schema}.${r.name}`).join(', ')}. Nothing was imported.`,
    );
  }

  // 1. The schemas, at the source's migration level.
  for (const service of services) {
    const until = await lastMigration(source, service.schema);
    if (until === undefined) continue; // that service never started on this vault
    if (!readMigrationFiles({ migrationsFolder: service.folder }).some((m) => m.folderMillis === until)) {
      throw new Error(
        `The PGlite database's ${service.schema} schema is at a migration (${until}) this vault does not have: a newer vault wrote it. Nothing was imported.`,
      );
    }
    await runServiceMigrations(drizzle({ client: target }) as unknown as Database, service, { until });
  }
  const targetRelations = (await relations(sink)).filter((r) => schemas.includes(r.schema));
  const names = (list: Relation[]) => list.map((r) => `${r.kind} ${r.schema}.${r.name}`).sort();
  if (JSON.stringify(names(sourceRelations)) !== JSON.stringify(names(targetRelations))) {
    throw new Error(
      `The migrations do not rebuild the PGlite database's tables: source ${names(sourceRelations).join(', ')}; target ${names(targetRelations).join(', ')}.`,
    );
  }

  // 2 and 3, all or nothing.
  const summary: ImportSummary = { tables: 0, rows: 0, sequences: 0 };
  await sink('begin');
  try {
    await sink('set local session_replication_role = replica');
    for (const table of sourceRelations.filter((r) => r.kind === 'table')) {
      summary.rows += await copyTable(source, sink, table);
      summary.tables++;
    }
    for (const sequence of sourceRelations.filter((r) => r.kind === 'sequence')) {
      const name = qualified(sequence.schema, sequence.name);
      const [[lastValue, isCalled]] = await source(`select last_value::text, is_called from ${name}`);
      await sink('select setval($1::regclass, $2::bigint, $3)', [name, lastValue, isCalled]);
      const [[copied]] = await sink(`select last_value::text from ${name}`);
      if (copied !== lastValue) throw new Error(`${name}: sequence at ${copied} after the copy, ${lastValue} in PGlite.`);
      summary.sequences++;
    }
    await sink('commit');
  } catch (error) {
    await sink('rollback').catch(() => undefined);
    throw error;
  }
  return summary;
}

interface Relation {
  schema: string;
  name: string;
  kind: 'table' | 'sequence';
}

async function relations(query: Query): Promise<Relation[]> {
  const rows = await query(
    `select n.nspname, c.relname, case when c.relkind = 'S' then 'sequence' else 'table' end
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'S') and n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
      order by 1, 2`,
  );
  return rows.map(([schema, name, kind]) => ({ schema: String(schema), name: String(name), kind: kind as Relation['kind'] }));
}

async function lastMigration(source: Query, schema: string): Promise<number | undefined> {
  const [[exists]] = await source('select to_regclass($1) is not null', [qualified(MIGRATIONS_SCHEMA, schema)]);
  if (!exists) return undefined;
  const [[last]] = await source(`select max(created_at)::text from ${qualified(MIGRATIONS_SCHEMA, schema)}`);
  return last === null ? undefined : Number(last);
}

interface Column {
  name: string;
  type: string;
  generated: boolean;
}

async function columns(query: Query, table: string): Promise<Column[]> {
  const rows = await query(
    `select attname, format_type(atttypid, atttypmod), attgenerated <> ''
       from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
    [table],
  );
  return rows.map(([name, type, generated]) => ({ name: String(name), type: String(type), generated: generated === true }));
}

async function copyTable(source: Query, sink: Query, table: Relation): Promise<number> {
  const name = qualified(table.schema, table.name);
  const [from, to] = [await columns(source, name), await columns(sink, name)];
  const describe = (list: Column[]) => JSON.stringify([...list].sort((a, b) => a.name.localeCompare(b.name)));
  if (describe(from) !== describe(to))
    throw new Error(`${name}: the columns differ between PGlite (${describe(from)}) and the rebuilt table (${describe(to)}).`);
  const stored = to.filter((c) => !c.generated);

  await sink(`delete from ${name}`);
  const rows = stored.length === 0 ? [] : await source(`select ${stored.map((c) => `${quote(c.name)}::text`).join(', ')} from ${name}`);
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const arrays = stored.map((_, i) => batch.map((row) => row[i]));
    await sink(
      `insert into ${name} (${stored.map((c) => quote(c.name)).join(', ')}) overriding system value
       select ${stored.map((c, i) => `u.c${i}::${c.type}`).join(', ')}
         from unnest(${stored.map((_, i) => `$${i + 1}::text[]`).join(', ')}) as u(${stored.map((_, i) => `c${i}`).join(', ')})`,
      arrays,
    );
  }

  const fingerprint = `select count(*)::text, md5(coalesce(string_agg(r, E'\\n' order by r collate "C"), '')) from (select t::text as r from ${name} t) x`;
  const [[count, digest]] = await source(fingerprint);
  const [[copiedCount, copiedDigest]] = await sink(fingerprint);
  if (count !== copiedCount || digest !== copiedDigest) {
    throw new Error(`${name}: ${copiedCount} rows (md5 ${copiedDigest}) after the copy, ${count} (md5 ${digest}) in PGlite.`);
  }
  return Number(count);
}
