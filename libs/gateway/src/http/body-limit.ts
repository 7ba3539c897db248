/**
 * The largest request body the gateway reads: 1 MiB, large enough for any
 * journal entry. A bigger one is refused with 413 before it is read (the
 * embedded photo upload streams its own body under its own 10 MB limit).
 */
export const BODY_LIMIT_BYTES = 1_048_576;

export const BODY_TOO_LARGE = `body: too large (over ${BODY_LIMIT_BYTES} bytes)`;
