import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';

/**
 * The name a repository's hot query is prepared under (Drizzle's
 * `.prepare(name)`): Drizzle then builds its SQL once, and PostgreSQL parses
 * and plans it once per connection instead of at every request. Named after
 * its table's schema and table, since the five services of the embedded
 * vault share one pool and a connection refuses a second statement of the
 * same name with other text.
 */
export function statementName(table: PgTable, query: string): string {
  const { schema = 'public', name } = getTableConfig(table);
  return `${schema}.${name}.${query}`;
}
