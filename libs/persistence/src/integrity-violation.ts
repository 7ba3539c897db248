/**
 * PostgreSQL's integrity-constraint violations (SQLSTATE class 23: a
 * duplicate key, a missing referenced row, a failed check), however deep
 * Drizzle wrapped the driver's error. Restoring an archive meets them when
 * the archive contradicts itself (two records with one id); the caller
 * answers with a 4xx naming the constraint, not a 500.
 */
export function integrityViolation(error: unknown): { constraint?: string; detail?: string } | undefined {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, constraint, detail } = current as { code?: unknown; constraint?: string; detail?: string };
    if (typeof code === 'string' && code.startsWith('23')) return { constraint, detail };
  }
  return undefined;
}
