import {
  AckPolicy,
  DeliverPolicy,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type Consumer,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { connect, headers, nanos, type NatsConnection } from '@nats-io/transport-node';
import type { EventContract } from '@vault/contracts';
import {
  NO_OBSERVABILITY,
  TRACEPARENT,
  contextLogger,
  currentRequestId,
  currentTrace,
  formatTraceparent,
  parseTraceparent,
  type Observability,
} from '@vault/platform';
import { NATS_RECONNECT } from '../nats-reconnect.js';
import { watchNatsConnection } from '../nats-connection-metrics.js';
import { EventBus, type EventSubscription } from './event-bus.js';
import { EventDelivery } from './event-delivery.js';
import { envelope, type EventEnvelope } from './event-envelope.js';
import { EVENT_STREAM } from './event-stream.js';

export { EVENT_STREAM };
const SUBJECT_PREFIX = 'vault.events.';
/**
 * An event published while the broker is away is tried again, each try
 * waiting up to 5 s for JetStream's acknowledgement, for about two minutes:
 * the stream's duplicate window, within which the message id keeps a retry
 * from storing the event twice.
 */
const PUBLISH = { timeout: 5000, retries: 15 };
/**
 * How long one pull waits for messages. After a reconnect the consume loop
 * checks its consumer and pulls again, retrying every `expires` while
 * JetStream is still starting: the default of 30 s would hold events back
 * that long after the broker's return.
 */
const PULL_EXPIRES_MS = 5000;
/**
 * One catching-up pull's longest wait. Its idle heartbeat is half of it, and
 * two missed end the pull: at 1 s a loaded machine's late heartbeat failed
 * a service's start.
 */
const CATCH_UP_EXPIRES_MS = 10_000;

/**
 * The distributed mode's bus: events are stored by JetStream before
 * `publish`'s background promise resolves, and each consuming service reads
 * them through its own durable consumer, so a service that restarts (or was
 * down) receives what it missed.
 */
export class JetStreamEventBus extends EventBus {
  private readonly logger = contextLogger('Events');
  private readonly ready: Promise<{ nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager }>;
  private pending = new Set<Promise<unknown>>();
  private readonly loops: Promise<void>[] = [];
  /**
   * Per subscribed kind with events stored before this process subscribed:
   * the stream sequence of the last of them, until the consumer's
   * acknowledgements have passed it (then the entry goes, for good).
   */
  private backlog: Array<{ name: string; consumer: Consumer; lastStored: number }> = [];
  private closed = false;
  /** Set once the first connection is made; until then, why the last try failed. */
  private connected = false;
  private lastConnectError?: Error;
  private readonly delivery: EventDelivery;

  constructor(
    url: string,
    /** Names this service's durable consumers, e.g. `audit-svc`. */
    private readonly consumerName: string,
    private readonly observability: Observability = NO_OBSERVABILITY,
  ) {
    super();
    this.delivery = new EventDelivery(observability, consumerName, true);
    this.ready = this.connect(url);
    this.ready.catch((error: Error) => {
      if (!this.closed) this.logger.error(`JetStream unavailable: ${error.message}`);
    });
  }

  publish(contract: EventContract, payload: unknown) {
    const event = envelope(payload, currentRequestId());
    const { tracer, metrics } = this.observability;
    // A producer span of the request's trace; its context travels in the message's headers to every consumer.
    const span = tracer.start(contract.name, 'producer', currentTrace(), { 'messaging.destination.name': contract.name });
    const traceHeaders = headers();
    traceHeaders.set(TRACEPARENT, formatTraceparent(span.context));
    const delivery = this.ready
      .then(({ js }) => js.publish(SUBJECT_PREFIX + contract.name, JSON.stringify(event), { msgID: event.id, headers: traceHeaders, ...PUBLISH }))
      .then(
        () => {
          metrics?.eventsPublished.inc({ event: contract.name, outcome: 'ok' });
          span.end();
        },
        (error: Error) => {
          metrics?.eventsPublished.inc({ event: contract.name, outcome: 'failed' });
          span.end({ failed: true });
          this.logger.error(`${contract.name}: not published (${error.message})`);
        },
      );
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }

  async subscribe(subscriptions: EventSubscription[]) {
    if (subscriptions.length === 0) return;
    const { js, jsm } = await this.ready;
    for (const subscription of subscriptions) {
      const durable = `${this.consumerName}__${subscription.contract.name.replace(/[^\w-]/g, '_')}`;
      await jsm.consumers.add(EVENT_STREAM, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: subscription.contract.history === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
        filter_subject: SUBJECT_PREFIX + subscription.contract.name,
        ack_wait: nanos(30_000),
      });
      const consumer = await js.consumers.get(EVENT_STREAM, durable);
      const lastStored = (await jsm.streams.getMessage(EVENT_STREAM, { last_by_subj: SUBJECT_PREFIX + subscription.contract.name }))?.seq ?? 0;
      if (lastStored > 0) this.backlog.push({ name: subscription.contract.name, consumer, lastStored });
      await this.catchUp(subscription, consumer);
      const messages = await consumer.consume({ max_messages: 100, expires: PULL_EXPIRES_MS });
      this.loops.push(
        (async () => {
          for await (const message of messages) await this.receive(subscription, message);
        })(),
      );
    }
  }

  /**
   * What arrived while this service was away is handled before subscribe()
   * resolves, as far as a few pulls go; readiness waits for what this does
   * not settle (a failed handler's retry, another replica's handling, a pull
   * cut short), and the consume loop that follows handles it.
   */
  private async catchUp(subscription: EventSubscription, consumer: Consumer) {
    for (let round = 0; round < 100; round++) {
      const pending = (await consumer.info()).num_pending;
      if (pending === 0) return;
      try {
        // Asks for no more than is pending, so the pull ends when they are in, not at its expiry.
        const messages = await consumer.fetch({ max_messages: Math.min(pending, 100), expires: CATCH_UP_EXPIRES_MS });
        for await (const message of messages) await this.receive(subscription, message);
      } catch (error) {
        // A pull ends with "heartbeats missed" when the server's heartbeats come late (a loaded
        // machine, a broker restarting): what is left goes to the consume loop.
        this.logger.warn(`${subscription.contract.name}: catching up cut short (${(error as Error).message}); the consume loop goes on`);
        return;
      }
    }
  }

  async purge(contract: EventContract) {
    const { jsm } = await this.ready;
    await jsm.streams.purge(EVENT_STREAM, { filter: SUBJECT_PREFIX + contract.name });
  }

  async checkConnected() {
    // Answered at once while the first connection is still being tried, not at the readiness deadline.
    if (!this.connected) throw new Error(`not connected to JetStream yet${this.lastConnectError ? ` (${this.lastConnectError.message})` : ''}`);
    const { nc } = await this.ready;
    await nc.rtt();
  }

  /**
   * Caught up on a kind once the consumer's acknowledgement floor has
   * reached the last event of that kind stored before the start, or it has
   * nothing pending and nothing unacknowledged: both hold only once every
   * earlier event was handled, by whichever replica it went to.
   */
  async checkCaughtUp() {
    if (this.backlog.length === 0) return;
    const behind: typeof this.backlog = [];
    for (const entry of this.backlog) {
      const info = await entry.consumer.info();
      const handled = info.ack_floor.stream_seq >= entry.lastStored || (info.num_pending === 0 && info.num_ack_pending === 0);
      if (!handled) behind.push(entry);
    }
    this.backlog = this.backlog.filter((entry) => behind.includes(entry));
    if (behind.length > 0) throw new Error(`events kept from before the start not handled yet: ${behind.map((entry) => entry.name).join(', ')}`);
  }

  async flush() {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    // Never connected: the events waiting for it fail (logged, each), the tries stop.
    if (!this.connected) {
      await this.ready.catch(() => undefined);
      return;
    }
    await this.flush();
    const connection = await this.ready.catch(() => undefined);
    await connection?.nc.drain().catch(() => undefined);
  }

  /** Acknowledged when handled (or unhandleable: a malformed event is dropped); a failed handler gets it again a second later. */
  private async receive(subscription: EventSubscription, message: JsMsg) {
    const published = parseTraceparent(message.headers?.get(TRACEPARENT));
    const result = await this.delivery.deliver(subscription, message.json<EventEnvelope>(), published, message.redelivered);
    if (result === 'failed') message.nak(1000);
    else message.ack();
  }

  /**
   * The client rides out outages once connected (NATS_RECONNECT), but its first connection fails for
   * good when the broker is not there yet (a compose stack starting, a name not in DNS yet): tried
   * again here, at the client's own reconnection pace, for as long as the process runs. Not the
   * client's waitOnFirstConnect: it waits the same way but hands over no connection to close while
   * it waits, so a process stopped before its broker came would hang in close().
   */
  private async firstConnection(url: string): Promise<NatsConnection> {
    for (;;) {
      if (this.closed) throw new Error('closed before JetStream could be reached');
      try {
        return await connect({ servers: [url], name: `${this.consumerName}-events`, ...NATS_RECONNECT });
      } catch (error) {
        if (!this.lastConnectError) this.logger.error(`JetStream unavailable: ${(error as Error).message}; trying again until it answers`);
        this.lastConnectError = error as Error;
        await new Promise((resolve) => setTimeout(resolve, NATS_RECONNECT.reconnectTimeWait + Math.random() * NATS_RECONNECT.reconnectJitter));
      }
    }
  }

  private async connect(url: string) {
    const nc = await this.firstConnection(url);
    if (this.lastConnectError) this.logger.info('JetStream reached');
    this.connected = true;
    watchNatsConnection(nc, this.observability.metrics, 'events');
    const jsm = await jetstreamManager(nc);
    try {
      await jsm.streams.info(EVENT_STREAM);
    } catch {
      await jsm.streams
        .add({
          name: EVENT_STREAM,
          subjects: [`${SUBJECT_PREFIX}>`],
          storage: StorageType.File,
          // Kept for a week whether or not consumed, so a consumer created later still sees them.
          retention: RetentionPolicy.Limits,
          max_age: nanos(7 * 24 * 3600 * 1000),
          duplicate_window: nanos(120_000),
        })
        .catch(async (error: Error) => {
          // Another service created it first.
          await jsm.streams.info(EVENT_STREAM).catch(() => {
            throw error;
          });
        });
    }
    return { nc, js: jetstream(nc), jsm };
  }
}
