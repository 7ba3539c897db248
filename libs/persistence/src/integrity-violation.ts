/** The driver's error that carries a SQLSTATE, however deep Drizzle wrapped it. */
function databaseErrorOf(error: unknown): { code: string; constraint?: string; detail?: string } | undefined {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return current as { code: string; constraint?: string; detail?: string };
  }
  return undefined;
}

/** PostgreSQL's SQLSTATE of a database error (`22023`, `23505`), or undefined for any other error. */
export function sqlStateOf(error: unknown): string | undefined {
  return databaseErrorOf(error)?.code;
}

/** SQLSTATE 22023: a value the server refuses, an unknown time zone name among them. */
export const INVALID_PARAMETER_VALUE = '22023';

/**
 * PostgreSQL's integrity-constraint violations (SQLSTATE class 23: a
 * duplicate key, a missing referenced row, a failed check). Restoring an
 * archive meets them when the archive contradicts itself (two records with
 * one id); the caller answers with a 4xx naming the constraint, not a 500.
 */
export function integrityViolation(error: unknown): { constraint?: string; detail?: string } | undefined {
  const found = databaseErrorOf(error);
  if (!found?.code.startsWith('23')) return undefined;
  return { constraint: found.constraint, detail: found.detail };
}
