import { ClientNats, type NatsOptions } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import type { RpcEnvelope, RpcReply } from '@vault/contracts';
import { TRACEPARENT, currentTrace, formatTraceparent, type Observability, type TraceContext } from '@vault/platform';
import { watchNatsConnection } from './nats-connection-metrics.js';
import type { RpcRequester } from './rpc-requester.js';

/** What Nest's NATS server answers a request with (its `respond`): the handler's answer, or what failed. */
interface NestReplyPacket {
  response?: RpcReply;
  err?: unknown;
}

/**
 * Nest's NATS client, sending the caller's trace in each request's headers
 * (W3C `traceparent`) so that the service's span joins the gateway's trace,
 * and following its connection for the metrics. When the connection drops,
 * the requests in flight fail at once (503): their replies went to a
 * connection that is gone (core NATS keeps nothing for a subscriber that is
 * away), so waiting out their deadlines (5 s for a sign-in, whose argon2 may
 * queue) would only hold the owner's answer back.
 */
export class TracedClientNats extends ClientNats implements RpcRequester {
  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly observability: Observability,
  ) {
    // Static headers, none: with them set, ClientNats makes a headers object for every message, which mergeHeaders fills.
    super({ ...options, headers: {} });
    this.on('disconnect', () => this.handleClose());
  }

  /** The requests in flight: each fails at once when the connection drops. */
  private readonly inFlight = new Set<(error: Error) => void>();
  /** A request's id, which Nest's server needs to tell a request from an event, and echoes. */
  private sequence = 0;

  /**
   * One request as Nest's server takes it (`{ pattern, data, id }` as JSON,
   * the trace in its headers), through the connection's one shared inbox
   * (nats.js `request`). Nest's own `send` subscribed a new inbox for every
   * request and unsubscribed it after the reply: three protocol messages
   * where one does, on the gateway and on the broker.
   */
  async request(pattern: string, envelope: RpcEnvelope, timeoutMs: number, trace?: TraceContext): Promise<RpcReply> {
    // Rejects while the connection is down, as send() did before publishing.
    const connection = (await this.connect()) as unknown as NatsConnection;
    const packet = JSON.stringify({ pattern, data: envelope, id: String(++this.sequence) });
    const headers = super.mergeHeaders() as { set(name: string, value: string): void };
    if (trace) headers.set(TRACEPARENT, formatTraceparent(trace));
    const answered = connection.request(pattern, packet, { timeout: timeoutMs, headers: headers as never });
    let fail: (error: Error) => void = () => undefined;
    const lost = new Promise<never>((_, reject) => (fail = reject));
    this.inFlight.add(fail);
    try {
      const reply = (await Promise.race([answered, lost])).json<NestReplyPacket>();
      if (reply.err !== undefined && reply.err !== null) throw reply.err;
      if (reply.response === undefined) throw new Error(`An empty answer to ${pattern}`);
      return reply.response;
    } finally {
      this.inFlight.delete(fail);
      // A request failed by the lost connection may still settle later: its outcome is no one's.
      answered.catch(() => undefined);
    }
  }

  override handleClose() {
    super.handleClose();
    const lost = new Error('Connection closed');
    for (const fail of this.inFlight) fail(lost);
    this.inFlight.clear();
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
