import { contextLogger, requestContext, type Observability, type TraceContext } from '@vault/platform';
import type { EventSubscription } from './event-bus.js';
import type { EventEnvelope } from './event-envelope.js';

/** How one delivery of an event to one consumer ended. */
export type DeliveryResult = 'handled' | 'dropped' | 'failed';

/**
 * Hands one event to one consumer, the same on both buses: its payload parsed
 * by the event's schema, the handler run under the request id and trace the
 * event was published in (as a consumer span of that trace), and counted in
 * the delivery metrics. A malformed payload is dropped, not retried forever.
 */
export class EventDelivery {
  private readonly logger = contextLogger('Events');

  constructor(
    private readonly observability: Observability,
    /** The consumer label: the durable consumers' prefix (audit-svc), or the process's name. */
    private readonly consumer: string,
    /** Whether a failed delivery is made again (JetStream) or is lost (in-process): a warning or an error. */
    private readonly retried: boolean,
  ) {}

  async deliver(subscription: EventSubscription, event: EventEnvelope, published: TraceContext | undefined, redelivered = false): Promise<DeliveryResult> {
    const { metrics, tracer } = this.observability;
    const labels = { event: subscription.contract.name, consumer: this.consumer };
    metrics?.eventsDelivered.inc(labels);
    if (redelivered) metrics?.eventsRedelivered.inc(labels);
    const parsed = subscription.contract.payload.safeParse(event.data);
    if (!parsed.success) {
      this.logger.error(`${subscription.contract.name}: invalid payload dropped`);
      return 'dropped';
    }
    const span = tracer.start(subscription.contract.name, 'consumer', published, {
      'messaging.destination.name': subscription.contract.name,
      'messaging.consumer.group.name': this.consumer,
    });
    try {
      await requestContext.run({ requestId: event.meta?.requestId, trace: span.context }, () => subscription.handler(parsed.data, event));
      metrics?.eventsAcknowledged.inc(labels);
      span.end();
      return 'handled';
    } catch (error) {
      metrics?.eventHandlerFailures.inc(labels);
      span.end({ failed: true });
      const problem = `${subscription.name} failed on ${subscription.contract.name}`;
      if (this.retried) this.logger.warn(`${problem}, will retry: ${(error as Error).message}`);
      else this.logger.error(`${problem}: ${(error as Error).message}`);
      return 'failed';
    }
  }
}
