import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import type { RpcContract, RpcEnvelope, RpcInput, RpcReply, RpcResponse } from '@vault/contracts';
import {
  NO_OBSERVABILITY,
  OBSERVABILITY,
  contextLogger,
  currentRequestId,
  currentTrace,
  rpcOutcomeOf,
  type Observability,
  type TraceContext,
} from '@vault/platform';
import { RpcFailure, serviceOf } from './rpc-failure.js';
import type { RpcRequester } from './rpc-requester.js';
import type { TransportOptions } from './transport-options.js';

export const RPC_PROXY = Symbol('RPC_PROXY');
export const TRANSPORT_OPTIONS = Symbol('TRANSPORT_OPTIONS');

/**
 * The gateway's one way to talk to a service: `send(CreateTarget, body)`
 * returns the typed reply, or throws an RpcFailure carrying the service's
 * status: its refusal's, 500 when the handler failed on its own, 503 when no
 * service answered (no connection, no responder, no handler, no answer in time).
 */
@Injectable()
export class RpcClient implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = contextLogger(RpcClient.name);

  constructor(
    @Inject(RPC_PROXY) private readonly proxy: ClientProxy & RpcRequester,
    @Inject(TRANSPORT_OPTIONS) private readonly options: TransportOptions,
    @Optional() @Inject(OBSERVABILITY) private readonly observability: Observability = NO_OBSERVABILITY,
  ) {}

  send<C extends RpcContract>(contract: C, data: RpcInput<C>): Promise<RpcResponse<C>> {
    return this.call(contract, data);
  }

  /**
   * Passes input straight from an HTTP request. Its shape is unknown here on
   * purpose: the service parses it with the contract and refuses it with a 400.
   */
  forward<C extends RpcContract>(contract: C, untrusted: Record<string, unknown>): Promise<RpcResponse<C>> {
    return this.call(contract, untrusted);
  }

  /**
   * One call, as a client span of the request's trace (its context goes out
   * in the message's headers) and in vault_rpc_client_duration_seconds.
   */
  private async call<C extends RpcContract>(contract: C, data: unknown): Promise<RpcResponse<C>> {
    const { pattern } = contract;
    const span = this.observability.tracer.start(pattern, 'client', currentTrace(), { 'rpc.system': 'vault', 'rpc.method': pattern });
    const started = performance.now();
    let status: number | undefined;
    try {
      return await this.exchange(contract, data, span.context);
    } catch (error) {
      status = error instanceof RpcFailure ? error.status : 500;
      throw error;
    } finally {
      const outcome = rpcOutcomeOf(status);
      this.observability.metrics?.rpcClient.observe({ pattern, outcome }, (performance.now() - started) / 1000);
      span.end({ failed: outcome === 'failed' || outcome === 'unavailable', attributes: { 'rpc.outcome': outcome } });
    }
  }

  private async exchange<C extends RpcContract>(contract: C, data: unknown, trace: TraceContext): Promise<RpcResponse<C>> {
    const envelope: RpcEnvelope = { data, meta: { requestId: currentRequestId() } };
    let reply: RpcReply;
    try {
      reply = await this.proxy.request(contract.pattern, envelope, contract.timeoutMs ?? this.options.timeoutMs, trace);
    } catch (error) {
      if (isExceptionFromService(error)) {
        this.logger.error(`${contract.pattern}: the service failed on this request (${error.message})`);
        throw RpcFailure.failedIn(contract.pattern);
      }
      this.logger.warn(`${contract.pattern}: no answer (${(error as Error)?.message ?? error})`);
      throw RpcFailure.serviceUnavailable(contract.pattern);
    }
    if (!reply.ok) {
      if (reply.error.status >= 500 && reply.error.status !== 503) this.logger.error(`${contract.pattern}: ${reply.error.status} ${reply.error.message}`);
      throw new RpcFailure(reply.error.status, reply.error.message);
    }
    const parsed = contract.response.safeParse(reply.data);
    if (!parsed.success) {
      this.logger.error(`${contract.pattern}: reply does not match its contract`);
      throw new RpcFailure(502, `The ${serviceOf(contract.pattern)} service sent an invalid reply.`);
    }
    return parsed.data as RpcResponse<C>;
  }

  /**
   * Connects at start rather than on the first call, so a broker that is
   * down shows in the log at once. Not fatal: calls answer 503 meanwhile and
   * the client keeps retrying.
   */
  async onApplicationBootstrap() {
    await this.proxy.connect().catch((error: Error) => this.logger.warn(`transport not connected yet: ${error.message}`));
  }

  async onApplicationShutdown() {
    await this.proxy.close();
  }
}

/**
 * What Nest's RPC exception filter sends back when an exception escapes a
 * handler before @Handles could turn it into a reply: the service was
 * reached and answered, so this is its failure, not its absence. Everything
 * else that ends a call without a reply (a timeout, no responders, no handler
 * for the pattern, a lost connection) is a string or an Error.
 */
function isExceptionFromService(error: unknown): error is { status: 'error'; message: string } {
  return typeof error === 'object' && error !== null && !(error instanceof Error) && (error as { status?: unknown }).status === 'error';
}
