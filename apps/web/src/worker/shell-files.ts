/**
 * What makes the offline shell: the built files that the service worker
 * keeps, and nothing else. Read by the build (which lists them into the
 * worker) and by the worker (which answers from them).
 */

/** Where the worker is served: the root, so that its scope is the whole app. */
export const WORKER_URL = '/sw.js';
/** The page every navigation gets when the vault cannot be reached. */
export const SHELL_PAGE = '/index.html';
/** Every cache the worker makes starts so; one per build (see shellCacheName). */
export const SHELL_CACHE_PREFIX = 'vault-shell-';

/** Code, styles, fonts, icons, the page and the manifest: the app's own files, never an answer of the vault's. */
const SHELL_FILE = /\.(?:js|css|html|webmanifest|svg|png|ico|woff2)$/;

/**
 * Whether a built file (its path under the build's folder, `assets/index-1a2b.js`)
 * belongs in the shell. Not the worker itself (the browser fetches it on its
 * own terms), not the route hints (read by the gateway, never served), not
 * the brotli copies (the same files, compressed for the wire).
 */
export function isShellFile(path: string): boolean {
  const name = path.replace(/^\/+/, '');
  return SHELL_FILE.test(name) && `/${name}` !== WORKER_URL;
}

/** The cache of one build's shell: a new build gets a new one, and the worker drops the old. */
export function shellCacheName(version: string): string {
  return `${SHELL_CACHE_PREFIX}${version}`;
}
