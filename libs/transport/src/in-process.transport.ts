import { BaseRpcContext, ClientProxy, Server, type CustomTransportStrategy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { Subscription, from, mergeMap } from 'rxjs';

/**
 * The embedded mode's transport: the gateway's client calls the services'
 * handlers directly, in the same process. Payloads are still copied through
 * JSON, so a handler sees exactly what it would see from NATS.
 */
export class InProcessBroker {
  server?: InProcessServer;
}

const roundTrip = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

export class InProcessServer extends Server implements CustomTransportStrategy {
  constructor(private readonly broker: InProcessBroker) {
    super();
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

export class InProcessClient extends ClientProxy {
  constructor(private readonly broker: InProcessBroker) {
    super();
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
    const context = new BaseRpcContext([]);
    const subscription: Subscription = from(Promise.resolve(handler(roundTrip(packet.data), context)))
      .pipe(mergeMap((result) => server.transformToObservable(result)))
      .subscribe({
        next: (response) => callback({ response: roundTrip(response) }),
        error: (err) => callback({ err, isDisposed: true }),
        complete: () => callback({ isDisposed: true }),
      });
    return () => subscription.unsubscribe();
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const handler = this.broker.server?.getHandlerByPattern(this.normalizePattern(packet.pattern));
    return (handler ? await handler(roundTrip(packet.data), new BaseRpcContext([])) : undefined) as T;
  }
}
