/**
 * The service worker (served as /sw.js; built by shell-worker.ts beside the
 * app's config, which fills in the two constants below). It keeps the built
 * shell so that the installed app opens, and says "VAULT UNREACHABLE", when
 * the vault cannot be reached; it keeps nothing else. The vault's answers,
 * photos and exports pass by untouched (fetch-handling.ts), and every page
 * comes from the network whenever the network answers.
 */
import { handlingOf, VAULT_ANSWER_PATTERNS } from './fetch-handling';
import { SHELL_CACHE_PREFIX, SHELL_PAGE, shellCacheName } from './shell-files';

/** The build's shell files, as URL paths (`/assets/index-1a2b.js`). */
declare const __SHELL_FILES__: readonly string[];
/** A digest of those files: a new build is a new worker, and a new cache. */
declare const __SHELL_VERSION__: string;

/*
 * What the worker uses of its global scope. The app's TypeScript settings
 * have the page's types (lib "DOM"); the worker's (lib "WebWorker") clash
 * with them in one program, so the few it needs are named here.
 */
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
/** A rule of the Service Worker Static Routing API (Chromium 123 and later). */
interface RouterRule {
  condition: { urlPattern: URLPattern };
  source: 'network';
}
interface InstallEvent extends ExtendableEvent {
  addRoutes?(rules: RouterRule[]): Promise<void>;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  readonly location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: (event: InstallEvent) => void): void;
  addEventListener(type: 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
}
declare const self: WorkerScope;

const CACHE = shellCacheName(__SHELL_VERSION__);
const SHELL_FILES = new Set(__SHELL_FILES__);

/**
 * The whole shell, before this worker may take over. Through the HTTP cache:
 * the page has just loaded most of it, a hashed file never changes under its
 * name, and the gateway has the others (the page, the manifest, the icons)
 * revalidated on every use.
 */
async function precacheShell(): Promise<void> {
  const cache = await caches.open(CACHE);
  await cache.addAll([...SHELL_FILES]);
}

/**
 * The vault's answers bypass the worker where the browser has a router for
 * it: no worker to wake for an API call, and a request the page sends as it
 * goes (a delete sent with keepalive at pagehide) is never handed to the
 * worker, whose pass-through Chromium can drop with the page. Elsewhere the
 * fetch handler leaves them alone just the same (fetch-handling.ts).
 */
async function routeVaultAnswersPastTheWorker(event: InstallEvent): Promise<void> {
  if (typeof event.addRoutes !== 'function' || typeof URLPattern === 'undefined') return;
  const rules = VAULT_ANSWER_PATTERNS.map((pathname): RouterRule => ({ condition: { urlPattern: new URLPattern({ pathname }) }, source: 'network' }));
  await event.addRoutes(rules).catch(() => {
    // A router that refuses the rules: the fetch handler still leaves these requests alone.
  });
}

/** The shells of earlier builds go once this one is in charge. */
async function dropOldShells(): Promise<void> {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(SHELL_CACHE_PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
}

/**
 * The network's page, whatever its status; the cached shell page only when
 * the network cannot be reached at all (fetch rejects), so that the app can
 * say so in its own look instead of the browser's error page.
 */
async function pageFromNetworkFirst(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (unreachable) {
    const shell = await caches.match(SHELL_PAGE, { cacheName: CACHE });
    if (shell) return shell;
    throw unreachable;
  }
}

/** A build file from the cache; from the network if the cache lost it (storage cleared under the worker). */
async function shellFileFromCache(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: CACHE })) ?? fetch(request);
}

self.addEventListener('install', (event) => {
  // A new build's worker takes over at once, its shell complete. A page still
  // open from the old build asks the network for its own files (their names
  // are not in this shell), as it would with no worker at all.
  event.waitUntil(Promise.all([routeVaultAnswersPastTheWorker(event), precacheShell()]).then(() => self.skipWaiting()));
});

// No clients.claim(): a page open when the worker arrives stays uncontrolled until its next load,
// which is when the shell matters (and a test's request interception sees that page as it was).
self.addEventListener('activate', (event) => {
  event.waitUntil(dropOldShells());
});

self.addEventListener('fetch', (event) => {
  const handling = handlingOf(event.request, self.location.origin, SHELL_FILES);
  if (handling === 'page') event.respondWith(pageFromNetworkFirst(event.request));
  else if (handling === 'shell-file') event.respondWith(shellFileFromCache(event.request));
  // 'network': no answer from the worker; the browser fetches as if it were not there.
});
