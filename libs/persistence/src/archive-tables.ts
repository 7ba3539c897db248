import { getTableColumns, type InferInsertModel, type InferSelectModel, type Table } from 'drizzle-orm';

/**
 * How a service's tables go into the owner's archive, said beside the tables.
 * An archived table carries every column into its record, under the column's
 * own key (times as ISO 8601 text), but those it lists in `leftOut` with the
 * reason; a table kept out of every archive says why. A test holds each
 * table's columns to its record's fields and fails for a column or a table
 * that is neither carried nor listed (libs/host/src/archive-coverage.spec.ts).
 */
export interface ArchivedTable<T extends Table = Table> {
  table: T;
  /** Columns the record does not carry under their own key, each with why (kept elsewhere, carried as another field). */
  leftOut?: Readonly<Record<string, string>>;
  /** Record fields that are no column, each with what it is made from. */
  carriedAs?: Readonly<Record<string, string>>;
}

export interface ServiceArchiveTables {
  /** By the record each makes: an archive record kind, or one of vault.json's single records (`settings`, `balance`). */
  archived: Readonly<Record<string, ArchivedTable>>;
  /** Tables that stay out of every archive, each with the reason. */
  notArchived: ReadonlyArray<{ table: Table; why: string }>;
}

/** A row as the archive carries it: each column under its own key, times as ISO 8601 text, but those its table leaves out. */
export function archiveRecordOf<T extends Table>(row: InferSelectModel<T>, archived?: ArchivedTable): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
    if (archived?.leftOut?.[key] === undefined) record[key] = value instanceof Date ? value.toISOString() : value;
  }
  return record;
}

/** An archive record back to a row of `table`: its time columns read from their ISO 8601 text, the rest as they are. */
export function rowOfArchiveRecord<T extends Table>(table: T, record: Record<string, unknown>): InferInsertModel<T> {
  const columns = getTableColumns(table);
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) row[key] = columns[key]?.dataType === 'date' && typeof value === 'string' ? new Date(value) : value;
  return row as InferInsertModel<T>;
}
