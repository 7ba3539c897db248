import { useSyncExternalStore } from 'react';

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  /**
   * A line under the description: the server's own reason for a refusal
   * (serverReason), so that the spec's texts stay as they are and the owner
   * still learns why.
   */
  detail?: string;
  variant?: ToastVariant;
  /** Milliseconds the toast stays visible; 5 s by default. */
  duration?: number;
  /** A button in the toast (UNDO); pressing it closes the toast with the reason "action". */
  action?: ToastAction;
  /** Called once when the toast leaves the screen, with why it left. */
  onClose?: (reason: ToastCloseReason) => void;
}

export interface ToastAction {
  label: string;
  onClick: () => void;
}

/** Its time ran out, the owner closed it, a newer toast took its place, or its action was pressed. */
export type ToastCloseReason = 'timeout' | 'dismissed' | 'replaced' | 'action';

export interface ToastItem extends Required<Pick<ToastInput, 'title' | 'variant' | 'duration'>> {
  id: number;
  description?: string;
  detail?: string;
  action?: ToastAction;
}

export const TOAST_DURATION_MS = 5000;
export const TOAST_LONG_DURATION_MS = 8000;
/** At most one toast is shown at a time. */
export const TOAST_LIMIT = 1;

let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const closers = new Map<number, (reason: ToastCloseReason) => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Ends a toast's timer and tells its owner (onClose) why it left, once. */
function retire(id: number, reason: ToastCloseReason): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  const onClose = closers.get(id);
  closers.delete(id);
  onClose?.(reason);
}

/** Closes one toast, or every toast without an id. */
export function dismissToast(id?: number, reason: ToastCloseReason = 'dismissed'): void {
  const removed = id === undefined ? toasts : toasts.filter((t) => t.id === id);
  toasts = id === undefined ? [] : toasts.filter((t) => t.id !== id);
  emit();
  for (const t of removed) retire(t.id, reason);
}

/** Presses a toast's action: the toast closes first, then the action runs. */
export function runToastAction(id: number): void {
  const item = toasts.find((t) => t.id === id);
  if (!item?.action) return;
  dismissToast(id, 'action');
  item.action.onClick();
}

/** Shows a toast; a newer toast replaces the one on screen. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  const item: ToastItem = {
    id,
    title: input.title,
    description: input.description,
    detail: input.detail,
    variant: input.variant ?? 'default',
    duration: input.duration ?? TOAST_DURATION_MS,
    ...(input.action ? { action: input.action } : {}),
  };
  const next = [item, ...toasts];
  const replaced = next.slice(TOAST_LIMIT);
  toasts = next.slice(0, TOAST_LIMIT);
  if (input.onClose) closers.set(id, input.onClose);
  timers.set(
    id,
    setTimeout(() => dismissToast(id, 'timeout'), item.duration),
  );
  emit();
  for (const old of replaced) retire(old.id, 'replaced');
  return id;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): ToastItem[] {
  return toasts;
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
