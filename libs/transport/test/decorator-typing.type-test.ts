/**
 * Type-level test, compiled by `npm run typecheck` and never run: @Handles and
 * @OnEvent hold a handler to its contract. Each `@ts-expect-error` marks a
 * handler that must NOT compile; if the decorators stopped checking, the
 * directive itself would be the error ("Unused '@ts-expect-error' directive").
 */
import { AccessAttempted, CreateTarget, UpdateTarget, VaultDestroyed, type AccessAttempt, type Target } from '@vault/contracts';
import { Handles } from '../src/handles.decorator.js';
import type { EventEnvelope } from '../src/events/event-envelope.js';
import { OnEvent } from '../src/events/on-event.decorator.js';

type UpdateRequest = { id: string; completed: boolean };
type CreateRequest = { title: string; description?: string };

declare const target: Target;

export class FittingHandlers {
  @Handles(UpdateTarget)
  async update(request: UpdateRequest): Promise<Target> {
    return { ...target, id: request.id, completed: request.completed };
  }

  // A synchronous handler, and one that needs nothing of its request.
  @Handles(CreateTarget)
  create(): Target {
    return target;
  }

  @OnEvent(AccessAttempted)
  async record(attempt: AccessAttempt, event: EventEnvelope) {
    return `${attempt.action} ${event.id}`;
  }

  @OnEvent(VaultDestroyed)
  async onDestroyed(payload: { at: string }) {
    return payload.at;
  }
}

export class MisfitHandlers {
  // Another contract's request: UpdateTarget's has no title.
  // @ts-expect-error the parameter does not fit UpdateTarget's request
  @Handles(UpdateTarget)
  async updateWithCreateRequest(request: CreateRequest): Promise<Target> {
    return { ...target, title: request.title };
  }

  // @ts-expect-error a number is not UpdateTarget's response
  @Handles(UpdateTarget)
  async updateReturningNumber(request: UpdateRequest): Promise<number> {
    return request.completed ? 1 : 0;
  }

  // @ts-expect-error the issue's example: CreateTarget's request in, a number out
  @Handles(UpdateTarget)
  async both(request: CreateRequest): Promise<number> {
    return request.title.length;
  }

  // @ts-expect-error a target without its id is not a Target
  @Handles(CreateTarget)
  async createMissingId(): Promise<Omit<Target, 'id'>> {
    return target;
  }

  // @ts-expect-error the access event's payload has no `at`
  @OnEvent(AccessAttempted)
  async recordWithDestroyedPayload(payload: { at: string }) {
    return payload.at;
  }

  // @ts-expect-error the envelope's id is a string, not a number
  @OnEvent(VaultDestroyed)
  async onDestroyedWithBadEnvelope(_payload: { at: string }, event: { id: number }) {
    return event.id;
  }
}
