import type { EventContract } from '@vault/contracts';
import type { z } from 'zod';
import type { EventEnvelope } from './event-envelope.js';

export type EventHandler = (payload: unknown, event: EventEnvelope) => Promise<void> | void;

export interface EventSubscription {
  contract: EventContract;
  handler: EventHandler;
  /** A readable name for logs, e.g. `AccessLogHandlers.record`. */
  name: string;
}

/**
 * Publishes events without making the caller wait: `publish` returns at once
 * and a failure is logged, never thrown into the request that caused it.
 */
export abstract class EventBus {
  abstract publish<C extends EventContract>(contract: C, payload: z.input<C['payload']>): void;
  /**
   * Starts delivering events to this process's handlers. Resolves once the
   * events stored while this service was away have been handled, so a
   * service started after it resolves acts on a world that includes them.
   */
  abstract subscribe(subscriptions: EventSubscription[]): Promise<void>;
  /** Deletes every stored event of this kind (self-destruct: access events hold addresses). */
  abstract purge(contract: EventContract): Promise<void>;
  /** Resolves while events can be published and received, rejects while they cannot (readiness). */
  abstract checkConnected(): Promise<void>;
  /**
   * Resolves once every event of the subscribed kinds that was stored before
   * this process subscribed has been handled and acknowledged (by this
   * process, or by another replica of the same service), and from then on;
   * rejects, naming those kinds, until then (readiness). A handler that
   * failed on one at start, or a replica still handling it, keeps it unready.
   */
  abstract checkCaughtUp(): Promise<void>;
  /** Resolves when every event published so far has been handed on (tests, shutdown). */
  abstract flush(): Promise<void>;
  abstract close(): Promise<void>;
}
