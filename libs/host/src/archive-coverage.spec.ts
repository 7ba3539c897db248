import { describe, expect, it } from '@jest/globals';
import { AUDIT_ARCHIVE_TABLES } from '@vault/audit';
import { AUTH_ARCHIVE_TABLES } from '@vault/auth';
import { ARCHIVE_RECORDS, ARCHIVE_RECORD_KINDS, BalanceRecord, SettingsRecord, VAULT_SERVICES, type ServiceName } from '@vault/contracts';
import { JOURNAL_ARCHIVE_TABLES } from '@vault/journal';
import { MEDIA_ARCHIVE_TABLES } from '@vault/media';
import type { ArchivedTable, ServiceArchiveTables } from '@vault/persistence';
import { PLANNER_ARCHIVE_TABLES } from '@vault/planner';
import { getTableColumns, is, type Table } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';

/**
 * The archive against the tables (issue 33): a column added to a table that
 * the archive neither carries nor leaves out on purpose would be dropped by
 * every export, backup and restore, silently. Each service says beside its
 * tables how they go into the archive (`*-archive.tables.ts`); this holds
 * every table of every service to that, column by column.
 */
const DECLARED: Record<ServiceName, ServiceArchiveTables> = {
  auth: AUTH_ARCHIVE_TABLES,
  planner: PLANNER_ARCHIVE_TABLES,
  journal: JOURNAL_ARCHIVE_TABLES,
  media: MEDIA_ARCHIVE_TABLES,
  audit: AUDIT_ARCHIVE_TABLES,
};

/** Each record of the archive by its key: the paged kinds, and vault.json's single records. */
const RECORDS: Record<string, z.ZodObject> = {
  ...Object.fromEntries(ARCHIVE_RECORD_KINDS.map((kind) => [kind, ARCHIVE_RECORDS[kind].record as z.ZodObject])),
  settings: SettingsRecord,
  balance: BalanceRecord,
};

const libs = fileURLToPath(new URL('../..', import.meta.url));

/** Every table a service's schema folder defines, found by what its modules export. */
async function tablesOf(service: ServiceName): Promise<Table[]> {
  const folder = `${libs}${service}/src/schema`;
  const tables = new Set<Table>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'))) {
    const module = (await import(`${folder}/${file}`)) as Record<string, unknown>;
    for (const value of Object.values(module)) if (is(value, PgTable)) tables.add(value);
  }
  return [...tables];
}

const nameOf = (table: Table) => {
  const { schema, name } = getTableConfig(table as PgTable);
  return `${schema}.${name}`;
};

/** What is wrong with one archived table against its record: each line names the column or field. */
function columnProblems(record: string, archived: ArchivedTable, columns: Record<string, { name: string }> = getTableColumns(archived.table)): string[] {
  const table = nameOf(archived.table);
  const fields = Object.keys(RECORDS[record]?.shape ?? {});
  const leftOut = Object.keys(archived.leftOut ?? {});
  const carriedAs = Object.keys(archived.carriedAs ?? {});
  const problems: string[] = [];
  for (const [key, column] of Object.entries(columns)) {
    if (!fields.includes(key) && !leftOut.includes(key))
      problems.push(`${table}.${column.name} (${key}): neither carried by the archive's ${record} record nor listed in leftOut with the reason`);
  }
  for (const field of fields) {
    if (!(field in columns) && !carriedAs.includes(field))
      problems.push(`${record}.${field}: a record field that is no column of ${table} and not listed in carriedAs`);
  }
  for (const key of leftOut) {
    if (!(key in columns)) problems.push(`${table}: leftOut names ${key}, which is no column`);
    else if (fields.includes(key)) problems.push(`${table}.${columns[key].name} (${key}): listed in leftOut, yet the ${record} record carries it`);
  }
  return problems;
}

describe('the archive carries every column of every table, or says why not', () => {
  it('declares every table of every service: archived, or left out with the reason', async () => {
    const problems: string[] = [];
    for (const { name } of VAULT_SERVICES) {
      const declared = [...Object.values(DECLARED[name].archived).map((a) => a.table), ...DECLARED[name].notArchived.map((n) => n.table)];
      for (const table of await tablesOf(name)) {
        const times = declared.filter((t) => t === table).length;
        if (times !== 1) problems.push(`${nameOf(table)}: declared ${times} times in ${name}'s archive tables (archived or notArchived), not once`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives each record of the archive exactly one table', () => {
    const owners = Object.entries(DECLARED).flatMap(([service, tables]) => Object.keys(tables.archived).map((record) => `${record} (${service})`));
    expect(owners.map((owner) => owner.split(' ')[0]).sort()).toEqual(Object.keys(RECORDS).sort());
  });

  it.each(Object.entries(DECLARED))('holds each archived table of %s to its record, column by column', (_service, tables) => {
    const problems = Object.entries(tables.archived).flatMap(([record, archived]) => columnProblems(record, archived));
    expect(problems).toEqual([]);
  });

  it('names the column a new table column would lose (the check itself)', () => {
    const { table } = PLANNER_ARCHIVE_TABLES.archived.targets;
    const problems = columnProblems('targets', { table }, { ...getTableColumns(table), addedLater: { name: 'added_later' } });
    expect(problems).toEqual([
      `planner.targets.added_later (addedLater): neither carried by the archive's targets record nor listed in leftOut with the reason`,
    ]);
  });
});
