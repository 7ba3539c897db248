import type { FastifyInstance, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sent from another site,
 * before their body is read. SameSite=Strict already keeps the session cookie
 * off such requests; this second check does not depend on the browser doing
 * that. Requests without Origin, Referer or Sec-Fetch-Site (curl, scripts) are
 * not cross-site browser requests and pass.
 */
export function refuseCrossSiteWrites(fastify: FastifyInstance) {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method) || isSameSite(request)) return done();
    reply.status(403).type('text/plain; charset=utf-8').send('Cross-site request refused');
  });
}

export function isSameSite(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return false;
  const source = request.headers.origin ?? request.headers.referer;
  if (source === undefined) return true;
  try {
    return new URL(source).host === request.host;
  } catch {
    // "null" (sandboxed frames, file: pages) and garbage are not this site.
    return false;
  }
}
