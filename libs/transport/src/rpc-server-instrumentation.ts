import type { MessageHandler } from '@nestjs/microservices';
import { TRACEPARENT, contextLogger, parseTraceparent, rpcOutcomeOf, withTrace, type Observability } from '@vault/platform';
import { isObservable } from 'rxjs';

const logger = contextLogger('Rpc');

/** The headers of a message as its transport's context gives them (NATS: MsgHdrs; in-process: a Map). */
interface WithHeaders {
  getHeaders?(): { get(name: string): string | undefined } | undefined;
}

/**
 * The server side of every RPC, whatever @Handles method answers it: a span
 * under the caller's (from the message's `traceparent` header), the handler
 * run inside it, and vault_rpc_server_duration_seconds by pattern and
 * outcome. Each transport's server hands its handlers out through this.
 */
export class RpcServerInstrumentation {
  private readonly wrapped = new WeakMap<MessageHandler, MessageHandler>();

  constructor(private readonly observability: Observability) {}

  /**
   * The handler of `pattern`, wrapped: the one registered under exactly that
   * route, else as Nest's Server finds it (`nestLookUp`). Nest first tries
   * JSON.parse on every pattern, for patterns written as objects; each of
   * Vault's ('planner.targets.create') threw a SyntaxError, with its stack,
   * on every message (3.6 % of an embedded create's CPU). A route found
   * under its own text is the one Nest's normalising would give.
   */
  handlerFor(pattern: string, registered: ReadonlyMap<string, MessageHandler>, nestLookUp: () => MessageHandler | null): MessageHandler | null {
    const handler = registered.get(pattern) ?? nestLookUp();
    if (!handler || handler.isEventHandler) return handler;
    let wrapper = this.wrapped.get(handler);
    if (!wrapper) {
      wrapper = this.instrument(pattern, handler);
      this.wrapped.set(handler, wrapper);
    }
    return wrapper;
  }

  private instrument(pattern: string, handler: MessageHandler): MessageHandler {
    const { tracer, metrics } = this.observability;
    const wrapper = async (data: unknown, context?: unknown) => {
      const parent = parseTraceparent((context as WithHeaders | undefined)?.getHeaders?.()?.get(TRACEPARENT));
      const span = tracer.start(pattern, 'server', parent, { 'rpc.system': 'vault', 'rpc.method': pattern });
      const started = performance.now();
      return withTrace(span.context, async () => {
        let status: number | undefined = 500;
        try {
          const result: unknown = await handler(data, context);
          status = statusOf(result);
          return result;
        } finally {
          const outcome = rpcOutcomeOf(status);
          const seconds = (performance.now() - started) / 1000;
          metrics?.rpcServer.observe({ pattern, outcome }, seconds);
          span.end({ failed: outcome === 'failed', attributes: { 'rpc.outcome': outcome } });
          // The service's side of the gateway's request line, with the same trace id (LOG_LEVEL=debug).
          logger.debug({ pattern, outcome, ms: Math.round(seconds * 1000) }, 'rpc handled');
        }
      });
    };
    // Nest reads its own marks (isEventHandler, extras) off the handler function.
    return Object.assign(wrapper, handler) as unknown as MessageHandler;
  }
}

/**
 * What an answer says of its outcome: an RpcReply (every @Handles method's)
 * its status; an Observable is what Nest's exception filter sends back when
 * an exception escaped a handler, a failure.
 */
function statusOf(result: unknown): number | undefined {
  if (isObservable(result)) return 500;
  const reply = result as { ok?: boolean; error?: { status?: number } } | undefined;
  return reply?.ok === false ? (reply.error?.status ?? 500) : undefined;
}
