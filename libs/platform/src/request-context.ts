import { AsyncLocalStorage } from 'node:async_hooks';
import type { TraceContext } from './observability/trace-context.js';

export interface RequestContext {
  requestId?: string;
  /** The span this work runs in: its trace id is the request's across every process. */
  trace?: TraceContext;
}

/**
 * Carries the request id and trace from the HTTP request through every await
 * and across the transport, so one id ties the gateway's and the services'
 * log lines.
 */
export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
