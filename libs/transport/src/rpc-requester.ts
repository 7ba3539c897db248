import type { RpcEnvelope, RpcReply } from '@vault/contracts';
import type { TraceContext } from '@vault/platform';

/**
 * What RpcClient asks of a transport's client: one request, its reply
 * within `timeoutMs`, sent under `trace` (the client span's context, which
 * the service's span is made a child of). It rejects with the body of Nest's RPC exception
 * filter (`{ status: 'error', message }`) when the service failed outside
 * its handler, and with an Error when no service answered (none there, no
 * answer in time, a connection lost).
 */
export interface RpcRequester {
  request(pattern: string, envelope: RpcEnvelope, timeoutMs: number, trace?: TraceContext): Promise<RpcReply>;
}
