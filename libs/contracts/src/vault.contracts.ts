import { z } from 'zod';
import { Empty } from './fields.js';
import { Owner, VaultState } from './auth.contracts.js';
import { defineEvent, defineRpc } from './rpc.js';

/** `GET /api/user`: who is here. Under global access a visitor without a session is shown the vault too. */
export const CurrentUser = Owner.extend({ globalAccess: z.boolean(), signedIn: z.boolean() });
export type CurrentUser = z.infer<typeof CurrentUser>;

export const GlobalAccessState = z.object({ globalAccess: z.boolean() });
export type GlobalAccessState = z.infer<typeof GlobalAccessState>;

export const SetGlobalAccess = defineRpc({
  pattern: 'auth.vault.global-access',
  request: z.object({ enabled: z.boolean() }),
  response: VaultState,
});

/** Records the vault as destroyed, first of all, so every later call is refused even if an erase fails. */
export const MarkVaultDestroyed = defineRpc({ pattern: 'auth.vault.destroy', request: Empty, response: VaultState });

/** Operator only (CLI): a destroyed vault starts again, empty. */
export const ServiceErased = z.object({ service: z.string(), erased: z.literal(true) });

/** Every service answers its own: erase all it owns (rows, objects, keys) and confirm. Idempotent. */
export function eraseContract(service: 'auth' | 'planner' | 'journal' | 'audit' | 'media') {
  return defineRpc({ pattern: `${service}.erase`, request: Empty, response: ServiceErased, timeoutMs: 30_000 });
}
export const EraseAuth = eraseContract('auth');
export const ErasePlanner = eraseContract('planner');
export const EraseJournal = eraseContract('journal');
export const EraseAudit = eraseContract('audit');
export const EraseMedia = eraseContract('media');

/**
 * Broadcast once at self-destruct and kept by JetStream: a service that was
 * down erases its data when it comes back, before it serves anything. Only
 * services that already existed receive it (`history: 'new'`).
 */
export const VaultDestroyed = defineEvent({ name: 'vault.destroyed', payload: z.object({ at: z.string() }), history: 'new' });
