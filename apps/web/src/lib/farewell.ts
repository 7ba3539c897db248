import { useSyncExternalStore } from 'react';
import { ApiError } from './api';

/**
 * Whether this page has learnt that the vault was destroyed: its own
 * PERFECT CELL was confirmed, or any call answered 410 (the server's answer
 * to every call after the erase). From then on the page shows the farewell
 * page only (spec section 2.14), whatever the route, and what the erased
 * vault left on this device goes too (see onVaultGone).
 */
let gone = false;
const listeners = new Set<() => void>();
const erasers = new Set<() => void>();

/** True for a call refused with 410 Gone: the vault has been destroyed. */
export function isGoneError(error: unknown): boolean {
  if (error instanceof ApiError) return error.answer.status === 410;
  return error instanceof Error && error.message.startsWith('410:');
}

/** Switches the page to the farewell page, once, and erases what the vault left on this device. */
export function markVaultGone(): void {
  if (gone) return;
  gone = true;
  for (const erase of erasers) {
    try {
      erase();
    } catch {
      // Each eraser is on its own: one that fails must not keep the others from running.
    }
  }
  for (const listener of listeners) listener();
}

/**
 * Registers what to erase from this device when the vault is gone (drafts,
 * deletes not yet sent, the screen to return to). Returns its removal.
 */
export function onVaultGone(erase: () => void): () => void {
  erasers.add(erase);
  return () => erasers.delete(erase);
}

export function isVaultGone(): boolean {
  return gone;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-renders when the vault is found gone. */
export function useVaultGone(): boolean {
  return useSyncExternalStore(subscribe, isVaultGone, isVaultGone);
}

/** For tests: a page that has not seen the vault go. */
export function resetVaultGone(): void {
  gone = false;
  for (const listener of listeners) listener();
}
