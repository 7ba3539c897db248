import type { EventContract } from '@vault/contracts';
import { contextLogger, currentRequestId, requestContext } from '@vault/platform';
import { EventBus, type EventSubscription } from './event-bus.js';
import { envelope, type EventEnvelope } from './event-envelope.js';

/** The embedded mode's bus: handlers in the same process, called after the request has moved on. */
export class InProcessEventBus extends EventBus {
  private readonly logger = contextLogger('Events');
  private readonly handlers = new Map<string, EventSubscription[]>();
  private pending = new Set<Promise<void>>();

  publish(contract: EventContract, payload: unknown) {
    const event = envelope(JSON.parse(JSON.stringify(payload)), currentRequestId());
    for (const subscription of this.handlers.get(contract.name) ?? []) {
      const delivery = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.deliver(subscription, event));
      this.pending.add(delivery);
      void delivery.finally(() => this.pending.delete(delivery));
    }
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

  async flush() {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async close() {
    await this.flush();
  }

  private async deliver(subscription: EventSubscription, event: EventEnvelope) {
    const parsed = subscription.contract.payload.safeParse(event.data);
    if (!parsed.success) return this.logger.error(`${subscription.contract.name}: invalid payload dropped`);
    try {
      await requestContext.run({ requestId: event.meta.requestId }, () => subscription.handler(parsed.data, event));
    } catch (error) {
      this.logger.error(`${subscription.name} failed on ${subscription.contract.name}: ${(error as Error).message}`);
    }
  }
}
