import { WORKER_URL } from '../worker/shell-files';

/**
 * The installed app's offline shell: a service worker (src/worker) that keeps
 * the built app, and only it, so that the app opens and says "VAULT
 * UNREACHABLE" without a network. It is registered once the owner is in
 * (a signed-out browser keeps nothing of the vault, not even its code) and
 * goes when the owner signs out or the vault is destroyed.
 */

/** Whether this browser offers service workers and the cache (a secure context: HTTPS, or localhost). */
function offersWorkers(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof caches !== 'undefined';
}

/**
 * Registers the worker of the built app. Nothing during development (Vite's
 * server has no /sw.js) nor where workers are not offered. `updateViaCache:
 * 'none'` has the browser ask for /sw.js itself on every check, never its HTTP
 * cache, so that a new build is seen at the next visit.
 */
export function registerShellWorker(): void {
  if (!import.meta.env.PROD || !offersWorkers()) return;
  navigator.serviceWorker.register(WORKER_URL, { scope: '/', updateViaCache: 'none' }).catch(() => {
    // Refused (storage off, say): the app works as before, without an offline shell.
  });
}

/**
 * Unregisters the worker and deletes every cache of this origin, so that the
 * device keeps nothing after sign-out or self-destruct. The server's
 * Clear-Site-Data does the same where the browser honours it; this covers the
 * others. Never fails: what cannot be deleted stays, and the sign-out goes on.
 */
export async function forgetOfflineShell(): Promise<void> {
  if (!offersWorkers()) return;
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    await Promise.all(registrations.map((registration) => registration.unregister()));
    const names = await caches.keys();
    await Promise.all(names.map((name) => caches.delete(name)));
  } catch {
    // Storage already gone, or refused: nothing more to delete.
  }
}
