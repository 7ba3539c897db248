/**
 * True for a call that got no answer at all: the network is down, or the
 * vault's address does not answer. fetch rejects with a TypeError then (an
 * answer with an error status is an ApiError instead, an abort a DOMException).
 */
export function isUnreachableError(error: unknown): boolean {
  return error instanceof TypeError;
}
