import type pg from 'pg';

/**
 * What in a PostgreSQL server's settings lets an acknowledged write be lost
 * to a power cut: `fsync=off`, or `synchronous_commit=off` (answers before the
 * commit's WAL is flushed). The distributed mode relies on the server for
 * durability, so each service says so at start instead of trusting it blindly.
 */
export async function durabilityProblems(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ fsync: string; synchronous_commit: string }>(
    "select current_setting('fsync') as fsync, current_setting('synchronous_commit') as synchronous_commit",
  );
  const [settings] = rows;
  const problems: string[] = [];
  if (settings.fsync !== 'on') problems.push(`fsync is ${settings.fsync}: a power cut can lose acknowledged writes`);
  if (settings.synchronous_commit === 'off') problems.push('synchronous_commit is off: a crash can lose the latest acknowledged writes');
  return problems;
}
