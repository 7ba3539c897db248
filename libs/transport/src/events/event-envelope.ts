import { randomUUID } from 'node:crypto';

/** An event on the wire: its id (for de-duplication), when it happened, and the request it came from. */
export interface EventEnvelope<T = unknown> {
  id: string;
  at: string;
  data: T;
  meta: { requestId?: string };
}

export function envelope<T>(data: T, requestId?: string): EventEnvelope<T> {
  return { id: randomUUID(), at: new Date().toISOString(), data, meta: { requestId } };
}
