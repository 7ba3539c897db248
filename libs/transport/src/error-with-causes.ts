/**
 * An error for a service's log: its stack, then the message of each cause
 * it wraps (at most three deep). A database error reaches a handler wrapped
 * ("Failed query: select ..."), and the reason (a connection timeout, too
 * many clients) is only in its cause.
 */
export function errorWithCauses(error: unknown): string {
  let text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < 3; depth++) {
    text += `\n  caused by: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return text;
}
