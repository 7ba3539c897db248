import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  requestId?: string;
}

/**
 * Carries the request id from the HTTP request through every await and across
 * the transport, so one id ties the gateway's and the services' log lines.
 */
export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
