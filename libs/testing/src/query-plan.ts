import type { TestDatabase } from './test-database.js';

/** What EXPLAIN says of a query: its plan's nodes, flattened. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/**
 * How PostgreSQL would run a page of a list: the node types of its plan, in
 * order (top first), after the table's statistics are brought up to date.
 * `sql` and `params` as a query builder gives them (drizzle's toSQL()).
 */
export async function planOf(db: TestDatabase, table: string, query: { sql: string; params: unknown[] }): Promise<string[]> {
  await db.query(`analyze ${table}`);
  const [row] = await db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`explain (format json) ${query.sql}`, query.params);
  const nodes: string[] = [];
  const visit = (node: PlanNode) => {
    nodes.push(node['Relation Name'] ? `${node['Node Type']} on ${node['Relation Name']}` : node['Node Type']);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(row['QUERY PLAN'][0].Plan);
  return nodes;
}

/** A page read from an index in the list's order: no scan of the whole table, no sort of all of it. */
export function readsInListOrder(plan: string[]): boolean {
  return !plan.some((node) => node.startsWith('Seq Scan') || node.startsWith('Parallel Seq Scan') || node === 'Sort' || node === 'Gather Merge');
}
