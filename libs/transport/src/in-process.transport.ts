import { BaseRpcContext, ClientProxy, Server, type CustomTransportStrategy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import type { RpcEnvelope, RpcReply } from '@vault/contracts';
import { NO_OBSERVABILITY, TRACEPARENT, currentTrace, formatTraceparent, type Observability, type TraceContext } from '@vault/platform';
import { Subscription, from, isObservable, lastValueFrom, mergeMap } from 'rxjs';
import { RpcServerInstrumentation } from './rpc-server-instrumentation.js';
import type { RpcRequester } from './rpc-requester.js';

/**
 * The embedded mode's transport: the gateway's client calls the services'
 * handlers directly, in the same process. A request is copied through JSON,
 * so a handler sees exactly what it would see from NATS. A reply is handed
 * over as the handler made it, without a second trip through JSON (a list's
 * hundred entries are the largest thing the transport carries): it is the
 * contract's typed answer, made for this call, and the caller parses it with
 * the contract's schema (RpcClient), which copies it into objects of its own
 * and leaves out what the contract does not name.
 */
export class InProcessBroker {
  server?: InProcessServer;
}

const roundTrip = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

/**
 * A message's context on this transport: its headers, as NATS would carry
 * them (the caller's `traceparent`), so the server side reads them the same way.
 */
class InProcessContext extends BaseRpcContext<[Map<string, string>]> {
  getHeaders(): Map<string, string> {
    return this.args[0];
  }
}

function contextOfCaller(trace = currentTrace()): InProcessContext {
  return new InProcessContext([new Map(trace ? [[TRACEPARENT, formatTraceparent(trace)]] : [])]);
}

export class InProcessServer extends Server implements CustomTransportStrategy {
  private readonly instrumentation: RpcServerInstrumentation;

  constructor(
    private readonly broker: InProcessBroker,
    observability: Observability = NO_OBSERVABILITY,
  ) {
    super();
    this.instrumentation = new RpcServerInstrumentation(observability);
  }

  override getHandlerByPattern(pattern: string) {
    return this.instrumentation.handlerFor(pattern, this.messageHandlers, () => super.getHandlerByPattern(pattern));
  }

  listen(callback: () => void) {
    this.broker.server = this;
    callback();
  }

  close() {
    if (this.broker.server === this) this.broker.server = undefined;
  }

  on() {
    throw new Error('The in-process transport has no events to listen to.');
  }

  unwrap<T>(): T {
    return this.broker as T;
  }
}

export class InProcessClient extends ClientProxy implements RpcRequester {
  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  /**
   * One call as RpcClient makes it: the handler called with a JSON copy of
   * the envelope and its answer awaited, without the Observable that Nest's
   * `send` builds around `publish` (and rxjs's timeout around that), which
   * was a tenth of an embedded create's CPU. An exception Nest's filter sent
   * back (an Observable that errors) rejects with that filter's body, as it
   * would over `send`; no handler, or no answer before the deadline, rejects
   * with an Error.
   */
  async request(pattern: string, envelope: RpcEnvelope, timeoutMs: number, trace?: TraceContext): Promise<RpcReply> {
    const handler = this.broker.server?.getHandlerByPattern(pattern);
    if (!handler) throw new Error(`No handler for ${pattern}`);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`No answer to ${pattern} within ${timeoutMs} ms`)), timeoutMs);
    });
    const answer = (async () => {
      const result: unknown = await handler(roundTrip(envelope), contextOfCaller(trace));
      return (isObservable(result) ? await lastValueFrom(result) : result) as RpcReply;
    })();
    try {
      return await Promise.race([answer, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async connect() {}

  close() {}

  unwrap<T>(): T {
    return this.broker as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const server = this.broker.server;
    const handler = server?.getHandlerByPattern(this.normalizePattern(packet.pattern));
    if (!server || !handler) {
      callback({ err: `No handler for ${String(packet.pattern)}`, isDisposed: true });
      return () => undefined;
    }
    const context = contextOfCaller();
    const subscription: Subscription = from(Promise.resolve(handler(roundTrip(packet.data), context)))
      .pipe(mergeMap((result) => server.transformToObservable(result)))
      .subscribe({
        next: (response) => callback({ response }),
        error: (err) => callback({ err, isDisposed: true }),
        complete: () => callback({ isDisposed: true }),
      });
    return () => subscription.unsubscribe();
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const handler = this.broker.server?.getHandlerByPattern(this.normalizePattern(packet.pattern));
    return (handler ? await handler(roundTrip(packet.data), contextOfCaller()) : undefined) as T;
  }
}
