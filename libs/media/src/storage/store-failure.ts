import { RpcFailure } from '@vault/transport';
import { ObjectStoreError } from './object.store.js';

/** A store that does not answer is the caller's 503, like a service that does not. */
export function asRpcFailure(error: unknown): unknown {
  if (error instanceof ObjectStoreError && error.reason === 'unavailable') {
    return RpcFailure.unavailable('The photo store is unavailable. Try again shortly.');
  }
  return error;
}
