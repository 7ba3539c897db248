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
}

export interface ToastItem extends Required<Pick<ToastInput, 'title' | 'variant' | 'duration'>> {
  id: number;
  description?: string;
  detail?: string;
}

export const TOAST_DURATION_MS = 5000;
export const TOAST_LONG_DURATION_MS = 8000;
/** At most one toast is shown at a time. */
export const TOAST_LIMIT = 1;

let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function dismissToast(id?: number): void {
  const removed = id === undefined ? toasts : toasts.filter((t) => t.id === id);
  for (const t of removed) {
    const timer = timers.get(t.id);
    if (timer) clearTimeout(timer);
    timers.delete(t.id);
  }
  toasts = id === undefined ? [] : toasts.filter((t) => t.id !== id);
  emit();
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
  };
  const next = [item, ...toasts];
  for (const old of next.slice(TOAST_LIMIT)) {
    const timer = timers.get(old.id);
    if (timer) clearTimeout(timer);
    timers.delete(old.id);
  }
  toasts = next.slice(0, TOAST_LIMIT);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), item.duration),
  );
  emit();
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
