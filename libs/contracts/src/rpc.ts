import type { z } from 'zod';

/**
 * A request-reply message between the gateway and a service. Both ends import
 * the same object, so a pattern name, its request and its reply can never drift.
 */
export interface RpcContract<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly pattern: string;
  readonly request: Req;
  readonly response: Res;
  /** Overrides the transport's default reply deadline, for calls known to be slow. */
  readonly timeoutMs?: number;
}

export function defineRpc<Req extends z.ZodType, Res extends z.ZodType>(contract: RpcContract<Req, Res>): RpcContract<Req, Res> {
  return contract;
}

/** A fire-and-forget message that any number of services may consume. */
export interface EventContract<Payload extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly payload: Payload;
  /**
   * What a consumer created for the first time receives: every stored event
   * (`all`, the default: nothing published before it existed is lost) or only
   * events from then on (`new`: an old command must not act on a new vault).
   */
  readonly history?: 'all' | 'new';
}

export function defineEvent<Payload extends z.ZodType>(contract: EventContract<Payload>): EventContract<Payload> {
  return contract;
}

/** What the caller sends: the validated request plus the request id it belongs to. */
export type RpcInput<C extends RpcContract> = z.input<C['request']>;
/** What a handler receives after its contract parsed the request. */
export type RpcRequest<C extends RpcContract> = z.output<C['request']>;
/** What a handler returns and the caller gets back. */
export type RpcResponse<C extends RpcContract> = z.output<C['response']>;

/**
 * A failure with the HTTP status it maps to. The gateway answers with the
 * status and the plain message, so the web shows `STATUS: message`.
 */
export interface RpcErrorBody {
  status: number;
  message: string;
}

/** Every reply on the wire: a result or a typed failure, never a thrown exception. */
export type RpcReply<T = unknown> = { ok: true; data: T } | { ok: false; error: RpcErrorBody };

export interface RpcEnvelope<T = unknown> {
  data: T;
  meta: { requestId?: string };
}
