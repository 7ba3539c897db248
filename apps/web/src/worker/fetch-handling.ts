/** What the worker does with a request (see handlingOf). */
export type Handling = 'page' | 'shell-file' | 'network';

/** What handlingOf reads of a request: a Request has all of it. */
export interface RequestFacts {
  method: string;
  mode: string;
  url: string;
}

/**
 * Paths of the vault's answers: the API (exports among them), photos and the
 * health check. The worker never answers them nor stores them; the browser
 * asks the network for them as if there were no worker.
 */
const VAULT_ANSWER = /^\/(?:api|objects|health)(?:\/|$)/;

/**
 * The same paths as URL patterns, for the browser's router (see the worker's
 * install): where it is offered, their requests go to the network without
 * passing through the worker at all.
 */
export const VAULT_ANSWER_PATTERNS: readonly string[] = ['/api/*', '/objects/*', '/health', '/health/*'];

/**
 * - `page`: a navigation to one of the app's pages, from the network first
 *   (a signed-in page names its screen's code, see the gateway's WebApp), the
 *   cached shell page only when the network is unreachable;
 * - `shell-file`: one of the build's own files, from the cache (their names
 *   change with their content, so a cached one is never stale);
 * - `network`: everything else, untouched: the vault's answers, other origins, writes.
 */
export function handlingOf(request: RequestFacts, origin: string, shellFiles: ReadonlySet<string>): Handling {
  if (request.method !== 'GET') return 'network';
  const url = new URL(request.url);
  if (url.origin !== origin || VAULT_ANSWER.test(url.pathname)) return 'network';
  if (request.mode === 'navigate') return 'page';
  if (url.search === '' && shellFiles.has(url.pathname)) return 'shell-file';
  return 'network';
}
