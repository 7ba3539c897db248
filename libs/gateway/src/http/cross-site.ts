import type { FastifyInstance, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sent from another origin,
 * before their body is read. SameSite=Strict keeps the session cookie off
 * requests from other sites, but not from another port of the vault's own
 * host (the same site): on a home server every other app there could write
 * into the vault. So this check does not depend on the browser. Requests
 * without Origin, Referer or Sec-Fetch-Site (curl, scripts) are not
 * cross-origin browser requests and pass.
 */
export function refuseCrossSiteWrites(fastify: FastifyInstance) {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method) || isSameOrigin(request)) return done();
    reply.status(403).type('text/plain; charset=utf-8').send('Cross-site request refused');
  });
}

/**
 * Whether the page that sent the request is the vault's own origin, the one
 * the request itself was sent to: Fetch Metadata when the browser sends it,
 * else the Origin (or Referer) compared with the request's Host, scheme and
 * port included, as Go's CrossOriginProtection and Rails do. The Host was
 * already held to VAULT_ALLOWED_HOSTS (421 otherwise), so a DNS-rebinding
 * page that chooses both never gets this far; an allowed name in the Origin
 * is not enough, since other apps answer on other ports of the same name.
 */
export function isSameOrigin(request: FastifyRequest): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return false;
  const source = request.headers.origin ?? request.headers.referer;
  if (source === undefined) return true;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    // "null" (sandboxed frames, file: pages) and garbage are not this origin.
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // Over TLS (directly or by a trusted proxy's word) a plain-HTTP page is another origin. The other way
  // round is a proxy that ends TLS without being trusted to say so: the vault cannot tell, the browser can.
  if (request.protocol === 'https' && url.protocol !== 'https:') return false;
  const target = hostAndPort(request.host, url.protocol);
  return target !== undefined && target === hostAndPort(url.host, url.protocol);
}

/**
 * `name:port` in lower case. A Host without a port is on the page's scheme's
 * default port: a browser sends neither for the default port, and a proxy in
 * front may change the scheme.
 */
function hostAndPort(host: string, protocol: string): string | undefined {
  if (!host) return undefined;
  const lower = host.toLowerCase();
  const portColon = lower.lastIndexOf(':');
  const hasPort = portColon > lower.lastIndexOf(']');
  const name = hasPort ? lower.slice(0, portColon) : lower;
  const port = hasPort ? lower.slice(portColon + 1) : protocol === 'https:' ? '443' : '80';
  if (!/^\d{1,5}$/.test(port)) return undefined;
  // "vault.example." is the same name as "vault.example".
  return `${name.endsWith('.') ? name.slice(0, -1) : name}:${Number(port)}`;
}
