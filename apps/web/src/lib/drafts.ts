import { useCallback, useRef, useState, useSyncExternalStore } from 'react';
import { onVaultGone } from './farewell';

/**
 * Unsent text kept on this device (localStorage) until it is sent or
 * discarded, so that an expired session, a reload or a closed tab does not
 * lose what the owner was typing. A draft that equals its form's empty (or,
 * for an edit, its saved) value is not kept. Self-destruct erases them all.
 */
export const DRAFT_PREFIX = 'vault.draft.';

const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

function storageKey(key: string): string {
  return `${DRAFT_PREFIX}${key}`;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The kept draft for `key`, shaped like `fallback` (a stored value of another shape is ignored). */
export function readDraft<T>(key: string, fallback: T): T {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(storageKey(key));
  } catch {
    return fallback;
  }
  if (raw === null) return fallback;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof fallback === 'object' && fallback !== null) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return fallback;
      const merged = { ...fallback } as Record<string, unknown>;
      for (const [field, initial] of Object.entries(fallback)) {
        const stored = (value as Record<string, unknown>)[field];
        if (typeof stored === typeof initial) merged[field] = stored;
      }
      return merged as T;
    }
    return typeof value === typeof fallback ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

/** Keeps `value` as the draft for `key`, or forgets it when it equals `empty`. */
export function writeDraft<T>(key: string, value: T, empty: T): void {
  try {
    if (same(value, empty)) localStorage.removeItem(storageKey(key));
    else localStorage.setItem(storageKey(key), JSON.stringify(value));
  } catch {
    // Storage refused (private mode, quota): the form still works, unkept.
  }
  emit();
}

export function discardDraft(key: string): void {
  try {
    localStorage.removeItem(storageKey(key));
  } catch {
    // nothing kept
  }
  emit();
}

export function hasDraft(key: string): boolean {
  try {
    return localStorage.getItem(storageKey(key)) !== null;
  } catch {
    return false;
  }
}

/** Forgets every draft (self-destruct). */
export function discardAllDrafts(): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(DRAFT_PREFIX)) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // nothing kept
  }
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's drafts change this tab's markers too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(DRAFT_PREFIX)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Whether a draft is kept for `key` (re-renders when that changes). */
export function useHasDraft(key: string): boolean {
  return useSyncExternalStore(
    subscribe,
    () => hasDraft(key),
    () => false,
  );
}

/**
 * Like useState for a form's text, kept on this device as it is typed.
 * `empty` is the value that needs no keeping (blank fields, or an edited
 * entry as saved). Returns the value, its setter, and `discard`, which puts
 * the form back to `empty` and forgets the draft (after sending, or Cancel).
 */
export function useDraft<T>(key: string, empty: T): [T, (next: T | ((current: T) => T)) => void, () => void] {
  const [value, setValue] = useState<T>(() => readDraft(key, empty));
  // The latest value, for functional updates: the draft is written here, not in a state
  // updater, which React may run during a render (where telling other components is not allowed).
  const latest = useRef(value);
  const emptyJson = JSON.stringify(empty);

  const update = useCallback(
    (next: T | ((current: T) => T)) => {
      const value = typeof next === 'function' ? (next as (current: T) => T)(latest.current) : next;
      latest.current = value;
      setValue(value);
      writeDraft(key, value, JSON.parse(emptyJson) as T);
    },
    [key, emptyJson],
  );

  const discard = useCallback(() => {
    const initial = JSON.parse(emptyJson) as T;
    latest.current = initial;
    setValue(initial);
    discardDraft(key);
  }, [key, emptyJson]);

  return [value, update, discard];
}

onVaultGone(discardAllDrafts);
