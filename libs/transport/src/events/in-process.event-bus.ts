import type { EventContract } from '@vault/contracts';
import { NO_OBSERVABILITY, currentRequestId, currentTrace, type Observability, type TraceContext } from '@vault/platform';
import { EventBus, type EventSubscription } from './event-bus.js';
import { envelope, type EventEnvelope } from './event-envelope.js';
import { EventDelivery } from './event-delivery.js';

/** The embedded mode's bus: handlers in the same process, called after the request has moved on. */
export class InProcessEventBus extends EventBus {
  private readonly handlers = new Map<string, EventSubscription[]>();
  private pending = new Set<Promise<unknown>>();
  private readonly delivery: EventDelivery;

  constructor(private readonly observability: Observability = NO_OBSERVABILITY) {
    super();
    // One process, so one consumer: it is named after the process, as its metrics are.
    this.delivery = new EventDelivery(observability, 'vault', false);
  }

  publish(contract: EventContract, payload: unknown) {
    const event = envelope(JSON.parse(JSON.stringify(payload)), currentRequestId());
    const published = this.observability.tracer.start(contract.name, 'producer', currentTrace(), { 'messaging.destination.name': contract.name });
    this.observability.metrics?.eventsPublished.inc({ event: contract.name, outcome: 'ok' });
    published.end();
    for (const subscription of this.handlers.get(contract.name) ?? []) this.deliverLater(subscription, event, published.context);
  }

  async subscribe(subscriptions: EventSubscription[]) {
    for (const s of subscriptions) this.handlers.set(s.contract.name, [...(this.handlers.get(s.contract.name) ?? []), s]);
  }

  async purge() {
    // Nothing is stored: events live only as long as their delivery.
  }

  async checkConnected() {
    // Nothing between the publisher and the handlers to lose.
  }

  async checkCaughtUp() {
    // Nothing is stored, so nothing from before the start waits to be handled.
  }

  async flush() {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async close() {
    await this.flush();
  }

  /** A failed handler is not called again: nothing is stored to deliver it from (its error is logged). */
  private deliverLater(subscription: EventSubscription, event: EventEnvelope, published: TraceContext) {
    const delivery = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.delivery.deliver(subscription, event, published));
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }
}
