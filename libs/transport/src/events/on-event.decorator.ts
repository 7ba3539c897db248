import type { EventContract } from '@vault/contracts';
import type { z } from 'zod';
import type { EventEnvelope } from './event-envelope.js';

export const ON_EVENT = Symbol('vault:on-event');

/** The payload of event E as its schema parses it. */
export type EventPayload<E extends EventContract> = z.output<E['payload']>;

/**
 * What a consumer of event E may be: it takes the parsed payload and the
 * envelope as it arrived (id, time; either may be left out); what it returns
 * is not read. A function type, so a parameter written for another event's
 * payload fails the typecheck.
 */
export type EventHandlerOf<E extends EventContract> = (payload: EventPayload<E>, event: EventEnvelope) => unknown;

/**
 * Marks a method as a consumer of one event. It receives the payload parsed
 * by the event's schema and the envelope (id, time). With JetStream it is
 * called at least once per event, so it must be idempotent (use the id).
 */
export function OnEvent<E extends EventContract>(contract: E) {
  return <M extends EventHandlerOf<E>>(_target: object, _key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    Reflect.defineMetadata(ON_EVENT, contract, descriptor.value as object);
  };
}
