import type { EventContract } from '@vault/contracts';

export const ON_EVENT = Symbol('vault:on-event');

/**
 * Marks a method as a consumer of one event. It receives the payload parsed
 * by the event's schema and the envelope (id, time). With JetStream it is
 * called at least once per event, so it must be idempotent (use the id).
 */
export function OnEvent(contract: EventContract): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    Reflect.defineMetadata(ON_EVENT, contract, descriptor.value);
    return descriptor;
  };
}
