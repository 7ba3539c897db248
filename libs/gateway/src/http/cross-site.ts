import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAllowedHost } from './allowed-hosts.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sent from another site,
 * before their body is read. SameSite=Strict already keeps the session cookie
 * off such requests; this second check does not depend on the browser doing
 * that. Requests without Origin, Referer or Sec-Fetch-Site (curl, scripts) are
 * not cross-site browser requests and pass.
 */
export function refuseCrossSiteWrites(fastify: FastifyInstance, allowedHosts: readonly string[]) {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method) || isSameSite(request, allowedHosts)) return done();
    reply.status(403).type('text/plain; charset=utf-8').send('Cross-site request refused');
  });
}

/**
 * Whether the page that sent the request is one of this vault's own: its
 * Origin (or Referer) must name an allowed host (VAULT_ALLOWED_HOSTS). It is
 * never compared with the request's own Host, which a DNS-rebinding page
 * chooses along with its Origin.
 */
export function isSameSite(request: FastifyRequest, allowedHosts: readonly string[]): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return false;
  const source = request.headers.origin ?? request.headers.referer;
  if (source === undefined) return true;
  try {
    const url = new URL(source);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return isAllowedHost(url.host, allowedHosts, url.protocol === 'https:' ? '443' : '80');
  } catch {
    // "null" (sandboxed frames, file: pages) and garbage are not this site.
    return false;
  }
}
