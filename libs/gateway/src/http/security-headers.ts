import type { FastifyInstance } from 'fastify';

/**
 * Headers on every answer. The policy allows only the app's own files: no
 * inline script, no framing, no sniffing, no referrer leaving the vault. A
 * route that sets a stricter policy of its own (a photo: nothing at all) keeps it.
 */
export function contentSecurityPolicy(extraConnectSources: string[] = []) {
  return [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  // The distributed mode's presigned photo uploads go straight to the bucket's origin.
  ['connect-src', "'self'", ...extraConnectSources].join(' '),
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  ].join('; ');
}

export function addSecurityHeaders(fastify: FastifyInstance, extraConnectSources: string[] = []) {
  const policy = contentSecurityPolicy(extraConnectSources);
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', policy);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    done(null, payload);
  });
}
