import { ClientNats, type NatsOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { TRACEPARENT, currentTrace, formatTraceparent, type Observability } from '@vault/platform';
import { watchNatsConnection } from './nats-connection-metrics.js';

/**
 * Nest's NATS client, sending the caller's trace in each request's headers
 * (W3C `traceparent`) so that the service's span joins the gateway's trace,
 * and following its connection for the metrics.
 */
export class TracedClientNats extends ClientNats {
  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly observability: Observability,
  ) {
    // Static headers, none: with them set, ClientNats makes a headers object for every message, which mergeHeaders fills.
    super({ ...options, headers: {} });
  }

  protected override mergeHeaders<THeaders = unknown>(requestHeaders?: THeaders) {
    const headers = super.mergeHeaders(requestHeaders) as { set(name: string, value: string): void } | undefined;
    const trace = currentTrace();
    if (headers && trace) headers.set(TRACEPARENT, formatTraceparent(trace));
    return headers;
  }

  override async handleStatusUpdates(client: Parameters<ClientNats['handleStatusUpdates']>[0]) {
    watchNatsConnection(client as unknown as NatsConnection, this.observability.metrics, 'rpc');
    return super.handleStatusUpdates(client);
  }
}
