import { useCallback, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiRequest } from './api';
import { onVaultGone } from './farewell';
import { onLeave } from './leave';
import { toast, TOAST_LONG_DURATION_MS } from './toast';
import { toastFailure } from './unauthorized';

/**
 * Deletes of the owner's content, with UNDO. A delete is not sent at the
 * click: the item leaves the list at once and the spec's toast ("Entry
 * Deleted", ...) offers UNDO for as long as it is on screen. The DELETE goes
 * when the toast leaves without UNDO (its time ran out, it was closed, a newer
 * toast took its place), or, should the page go first (a reload, a sign-out,
 * a closed tab), from the pagehide event with fetch's keepalive, which
 * outlives the page.
 *
 * Why not a delete undone on the server: nothing is erased until the owner
 * had the chance to take it back, so an undone entry is the very row it was,
 * dates and all, and no service needs a "deleted" state. Whatever goes wrong
 * (the browser killed before pagehide, a failed call) leaves the item in
 * place, never a lost one: a failed delete brings its item back with the
 * spec's failure toast.
 */

export type DeleteKind = 'journal' | 'study' | 'template' | 'mission';

export interface DeferredDelete {
  kind: DeleteKind;
  /** The DELETE URL of one item. */
  url: (id: string) => string;
  /** The queries read again once the delete is done. */
  refresh: QueryKey;
  /** The spec's success toast, which carries UNDO. */
  toast: { title: string; description?: string };
  /** The spec's failure text ("Failed to delete study"). */
  failure: string;
}

/** How long UNDO is offered: the spec's long toast duration. */
export const UNDO_WINDOW_MS = TOAST_LONG_DURATION_MS;
export const UNDO_LABEL = 'UNDO';

interface PendingDelete {
  kind: DeleteKind;
  id: string;
  url: string;
  refresh: QueryKey;
  queryClient: QueryClient;
  /** waiting: UNDO still possible; sending: the DELETE is on its way. */
  state: 'waiting' | 'sending';
}

const pending = new Map<string, PendingDelete>();
const listeners = new Set<() => void>();
let snapshots = new Map<DeleteKind, ReadonlySet<string>>();
const NONE: ReadonlySet<string> = new Set();

function keyOf(kind: DeleteKind, id: string): string {
  return `${kind}:${id}`;
}

function emit(): void {
  const next = new Map<DeleteKind, Set<string>>();
  for (const p of pending.values()) {
    const ids = next.get(p.kind) ?? new Set<string>();
    ids.add(p.id);
    next.set(p.kind, ids);
  }
  snapshots = next;
  for (const listener of listeners) listener();
}

/** Puts the item out of sight, shows the toast with UNDO, and sends the DELETE when the toast goes. */
export function scheduleDelete(queryClient: QueryClient, options: DeferredDelete, id: string): void {
  const key = keyOf(options.kind, id);
  if (pending.has(key)) return;
  pending.set(key, { kind: options.kind, id, url: options.url(id), refresh: options.refresh, queryClient, state: 'waiting' });
  emit();
  toast({
    ...options.toast,
    duration: UNDO_WINDOW_MS,
    action: { label: UNDO_LABEL, onClick: () => undoDelete(options.kind, id) },
    onClose: (reason) => {
      if (reason !== 'action') void sendDelete(key, options.failure);
    },
  });
}

/** UNDO: the item comes back as it was; nothing was sent. */
export function undoDelete(kind: DeleteKind, id: string): void {
  const key = keyOf(kind, id);
  if (pending.get(key)?.state !== 'waiting') return;
  pending.delete(key);
  emit();
}

async function sendDelete(key: string, failure: string): Promise<void> {
  const item = pending.get(key);
  if (item?.state !== 'waiting') return;
  item.state = 'sending';
  try {
    await apiRequest('DELETE', item.url);
  } catch (error) {
    toastFailure(error, failure);
  }
  // Read the list again before showing it without the hidden item, so the item
  // neither flashes back after a delete nor stays hidden after a failed one.
  try {
    await item.queryClient.invalidateQueries({ queryKey: item.refresh });
  } finally {
    pending.delete(key);
    emit();
  }
}

/** The page is going: every delete still waiting is sent now, with keepalive so it outlives the page. */
export function flushPendingDeletes(): void {
  for (const item of pending.values()) {
    if (item.state !== 'waiting') continue;
    item.state = 'sending';
    fetch(item.url, { method: 'DELETE', credentials: 'same-origin', keepalive: true }).catch(() => undefined);
  }
}

/**
 * The page is about to leave for an endpoint (logout, login): the deletes still
 * waiting are sent now and awaited, while the session lasts. The page is going,
 * so a refusal is not reported; its item is simply still there next time.
 */
export async function sendPendingNow(): Promise<void> {
  const waiting = [...pending.values()].filter((item) => item.state === 'waiting');
  for (const item of waiting) item.state = 'sending';
  await Promise.allSettled(waiting.map((item) => apiRequest('DELETE', item.url)));
}

/** A page brought back from the back-forward cache: the deletes sent at pagehide are done. */
function settleAfterReturn(event: PageTransitionEvent): void {
  if (!event.persisted) return;
  for (const [key, item] of pending) {
    if (item.state !== 'sending') continue;
    pending.delete(key);
    void item.queryClient.invalidateQueries({ queryKey: item.refresh });
  }
  emit();
}

onLeave(sendPendingNow);

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flushPendingDeletes);
  window.addEventListener('pageshow', settleAfterReturn);
}

// A destroyed vault has nothing left to delete.
onVaultGone(() => {
  pending.clear();
  emit();
});

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The ids of this kind that are deleted but not yet gone from the server: lists leave them out. */
export function usePendingDeletes(kind: DeleteKind): ReadonlySet<string> {
  const read = () => snapshots.get(kind) ?? NONE;
  return useSyncExternalStore(subscribe, read, read);
}

/** `items` without those awaiting their delete. */
export function withoutPending<T extends { id: string }>(items: readonly T[], hidden: ReadonlySet<string>): T[] {
  return hidden.size === 0 ? [...items] : items.filter((item) => !hidden.has(item.id));
}

/** The delete of one kind of item, with UNDO (see scheduleDelete); `options` is that kind's constant. */
export function useDeferredDelete(options: DeferredDelete): (id: string) => void {
  const queryClient = useQueryClient();
  return useCallback((id: string) => scheduleDelete(queryClient, options, id), [queryClient, options]);
}

/** For tests: forget every delete without sending it. */
export function resetPendingDeletes(): void {
  pending.clear();
  emit();
}
