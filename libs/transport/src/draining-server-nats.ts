import { ServerNats, type NatsOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { NO_OBSERVABILITY, type Observability } from '@vault/platform';
import { watchNatsConnection } from './nats-connection-metrics.js';
import { RpcServerInstrumentation } from './rpc-server-instrumentation.js';

/** How long a drain may wait for the broker before the close goes on without it. */
const DRAIN_LIMIT_MS = 2000;

/**
 * ServerNats whose graceful close drains its subscriptions rather than only
 * unsubscribing them. An unsubscribed replica drops a request the broker had
 * already sent it before it learned of the unsubscription (the gateway then
 * waits in vain, 503); drained, the replica leaves its queue group, handles what
 * is on its way, and only then waits out the grace period for the answers of
 * the handlers still running (gracefulShutdown, gracePeriod) and closes.
 * Its handlers are measured and traced (RpcServerInstrumentation), and so is
 * its connection.
 */
export class DrainingServerNats extends ServerNats {
  private readonly instrumentation: RpcServerInstrumentation;

  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly observability: Observability = NO_OBSERVABILITY,
  ) {
    super(options);
    this.instrumentation = new RpcServerInstrumentation(observability);
  }

  override getHandlerByPattern(pattern: string) {
    return this.instrumentation.handlerFor(pattern, super.getHandlerByPattern(pattern));
  }

  override async handleStatusUpdates(client: Parameters<ServerNats['handleStatusUpdates']>[0]) {
    watchNatsConnection(client as unknown as NatsConnection, this.observability.metrics, 'rpc');
    return super.handleStatusUpdates(client);
  }

  override async close(): Promise<void> {
    // ServerNats keeps them in a field of its own; a subscription of the NATS client can drain.
    const subscriptions = (this as unknown as { subscriptions: { drain(): Promise<void> }[] }).subscriptions;
    // A drain needs the broker's answer: without a connection (an outage) it would wait for the reconnection.
    const drained = Promise.all(subscriptions.map((subscription) => subscription.drain().catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_LIMIT_MS)))]);
    clearTimeout(timer);
    await super.close();
  }
}
