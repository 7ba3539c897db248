import { NatsContext, ServerNats, type NatsOptions } from '@nestjs/microservices';
import { NO_MESSAGE_HANDLER } from '@nestjs/microservices/constants.js';
import type { NatsConnection } from '@nats-io/transport-node';
import { NO_OBSERVABILITY, type Observability } from '@vault/platform';
import { isObservable, lastValueFrom } from 'rxjs';
import { watchNatsConnection } from './nats-connection-metrics.js';
import { RpcServerInstrumentation } from './rpc-server-instrumentation.js';

/** How long a drain, or the last flush, may wait for the broker before the close goes on without it. */
const BROKER_LIMIT_MS = 2000;

/**
 * ServerNats whose close first answers everything it has taken, and then no
 * longer than the gateway would wait for those answers. It drains its
 * subscriptions rather than only unsubscribing them: an unsubscribed replica
 * drops a request the broker had already sent it before it learned of the
 * unsubscription (the gateway then waits in vain, 503); drained, the replica
 * leaves its queue group and handles what is on its way. It then waits until
 * no request it took is unanswered, or until `answerWithinMs` (the gateway's
 * RPC timeout) has passed since the close began, when nobody waits for those
 * answers any more: Nest's own graceful close waits a fixed grace period
 * instead, which lost answers on a busy node (a handler slowed past the period
 * while the gateway still waited) and kept an idle replica waiting for nothing.
 * Its handlers are measured and traced (RpcServerInstrumentation), and so is
 * its connection.
 */
export class DrainingServerNats extends ServerNats {
  private readonly instrumentation: RpcServerInstrumentation;
  /** Requests taken and not yet answered. */
  private unanswered = 0;
  private readonly onAnswered = new Set<() => void>();

  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly answerWithinMs: number,
    private readonly observability: Observability = NO_OBSERVABILITY,
  ) {
    super({ ...options, gracefulShutdown: false });
    this.instrumentation = new RpcServerInstrumentation(observability);
  }

  override getHandlerByPattern(pattern: string) {
    return this.instrumentation.handlerFor(pattern, this.messageHandlers, () => super.getHandlerByPattern(pattern));
  }

  override async handleStatusUpdates(client: Parameters<ServerNats['handleStatusUpdates']>[0]) {
    watchNatsConnection(client as unknown as NatsConnection, this.observability.metrics, 'rpc');
    return super.handleStatusUpdates(client);
  }

  override async handleMessage(channel: string, message: Parameters<ServerNats['handleMessage']>[1]) {
    this.unanswered += 1;
    try {
      return await this.answer(channel, message);
    } finally {
      this.unanswered -= 1;
      for (const notify of this.onAnswered) notify();
    }
  }

  /**
   * A request answered as Nest's server answers it, `{ response }` or
   * `{ err }` with `isDisposed` and the request's id, as JSON to its reply
   * subject, without the Observable, the processing hooks and the tick
   * Nest's server puts between a handler and its reply (a tenth of a
   * service's CPU on a create). A message without an id (an event) or
   * without a reply subject goes Nest's way.
   */
  private async answer(channel: string, message: Parameters<ServerNats['handleMessage']>[1]) {
    const packet = message.json() as { id?: string; data?: unknown } | null;
    if (packet?.id === undefined || !message.reply) return super.handleMessage(channel, message);
    const respond = (reply: object) => message.respond(JSON.stringify({ ...reply, isDisposed: true, id: packet.id }));
    const handler = this.getHandlerByPattern(channel);
    if (!handler) return void respond({ status: 'error', err: NO_MESSAGE_HANDLER });
    try {
      const result: unknown = await handler(packet.data, new NatsContext([message.subject, message.headers]));
      // An exception Nest's filter caught comes back as an Observable that errors with its body.
      respond({ response: isObservable(result) ? await lastValueFrom(result) : result });
    } catch (err) {
      respond({ err });
    }
  }

  override async close(): Promise<void> {
    const deadline = Date.now() + this.answerWithinMs;
    const connection = (this as unknown as { natsClient: NatsConnection | null }).natsClient;
    // ServerNats keeps them in a field of its own; a subscription of the NATS client can drain.
    const subscriptions = (this as unknown as { subscriptions: { drain(): Promise<void> }[] }).subscriptions;
    // A drain needs the broker's answer: without a connection (an outage) it would wait for the reconnection.
    await beforeDeadline(Promise.all(subscriptions.map((subscription) => subscription.drain().catch(() => undefined))), Date.now() + BROKER_LIMIT_MS);
    await beforeDeadline(this.allAnswered(), deadline);
    // The answers are in the connection's buffer: out to the broker before it closes.
    if (connection && !connection.isClosed())
      await beforeDeadline(
        connection.flush().catch(() => undefined),
        Date.now() + BROKER_LIMIT_MS,
      );
    await super.close();
  }

  private allAnswered(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.unanswered > 0) return;
        this.onAnswered.delete(check);
        resolve();
      };
      this.onAnswered.add(check);
      check();
    });
  }
}

/** Waits for `work` until `deadline` (epoch ms), whichever comes first. */
async function beforeDeadline(work: Promise<unknown>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))))]);
  clearTimeout(timer);
}
