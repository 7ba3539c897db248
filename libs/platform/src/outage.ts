/**
 * Whether an error says that something a process depends on (its database, a
 * server over the network) could not be reached or would take no more work
 * for now, rather than that the request or the code was wrong. A request that
 * fails so is answered 503 (try again shortly), not 500.
 *
 * The reason is often a cause or two deep: a query error ("Failed query:
 * select ...") wraps the pool's "timeout exceeded when trying to connect".
 */
export function isOutage(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (saysOutage(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Node's codes for a peer that could not be reached or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's SQLSTATEs for a server that cannot take the work now: class 08
 * (connection exception), 53300 (too many connections: "sorry, too many
 * clients already"), 57P01 to 57P03 (shutting down, crashed, not accepting
 * connections yet).
 */
const POSTGRES_OUTAGE = /^(08...|53300|57P0[123])$/;

/** node-postgres's own words for a connection it could not open in time or lost; these carry no code. */
const CONNECTION_LOST = /^(timeout exceeded when trying to connect|Connection terminated)/;

function saysOutage(error: unknown): boolean {
  if (typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_OUTAGE.test(code))) return true;
  return typeof message === 'string' && CONNECTION_LOST.test(message);
}
