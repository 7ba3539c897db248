import { ClientNats, type NatsOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { TRACEPARENT, currentTrace, formatTraceparent, type Observability } from '@vault/platform';
import { watchNatsConnection } from './nats-connection-metrics.js';

/**
 * Nest's NATS client, sending the caller's trace in each request's headers
 * (W3C `traceparent`) so that the service's span joins the gateway's trace,
 * and following its connection for the metrics. When the connection drops,
 * the requests in flight fail at once (503): their replies went to a
 * connection that is gone (core NATS keeps nothing for a subscriber that is
 * away), so waiting out their deadlines (5 s for a sign-in, whose argon2 may
 * queue) would only hold the owner's answer back.
 */
export class TracedClientNats extends ClientNats {
  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly observability: Observability,
  ) {
    // Static headers, none: with them set, ClientNats makes a headers object for every message, which mergeHeaders fills.
    super({ ...options, headers: {} });
    this.on('disconnect', () => this.handleClose());
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
