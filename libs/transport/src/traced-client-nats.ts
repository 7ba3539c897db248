import { ClientNats, type NatsOptions } from '@nestjs/microservices';
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node';
import type { RpcEnvelope, RpcReply } from '@vault/contracts';
import { ReplyInbox } from './reply-inbox.js';
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

  /** The shared reply inbox of the connection in use (a new connection gets its own). */
  private inbox?: ReplyInbox;
  /** A request's id, which Nest's server needs to tell a request from an event, and echoes. */
  private sequence = 0;

  /**
   * One request as Nest's server takes it (`{ pattern, data, id }` as JSON,
   * the trace in its headers), through the connection's one shared inbox.
   * Nest's own `send` subscribed a new inbox for every request and
   * unsubscribed it after the reply: three protocol messages where one does,
   * on the gateway and on the broker.
   */
  async request(pattern: string, envelope: RpcEnvelope, timeoutMs: number, trace?: TraceContext): Promise<RpcReply> {
    // Rejects while the connection is down, as send() did before publishing.
    const connection = (await this.connect()) as unknown as NatsConnection;
    if (this.inbox?.connection !== connection) this.inbox = new ReplyInbox(connection);
    const packet = JSON.stringify({ pattern, data: envelope, id: String(++this.sequence) });
    const headers = super.mergeHeaders() as MsgHdrs;
    if (trace) headers.set(TRACEPARENT, formatTraceparent(trace));
    const reply = (await this.inbox.request(pattern, packet, headers, timeoutMs)).json<NestReplyPacket>();
    if (reply.err !== undefined && reply.err !== null) throw reply.err;
    if (reply.response === undefined) throw new Error(`An empty answer to ${pattern}`);
    return reply.response;
  }

  override handleClose() {
    super.handleClose();
    this.inbox?.failAll(new Error('Connection closed'));
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
