import type { FastifyInstance } from 'fastify';

/**
 * The policy on every answer: only the app's own files, no inline script, no
 * plugins, no `<base>`, forms posting only to the vault, no framing.
 *
 * Directives that would only repeat `default-src 'self'` are left out, as a
 * browser falls back to it for them: `script-src` (and through it
 * `script-src-elem`, `script-src-attr`, `worker-src`), `style-src` (and
 * `style-src-elem`, `style-src-attr`: inline styles stay refused), `font-src`,
 * and `connect-src` unless it names more than the vault's own origin.
 * `img-src` and `object-src` differ from the fallback, and `base-uri`,
 * `form-action` and `frame-ancestors` have none, so they stay.
 */
export function contentSecurityPolicy(extraConnectSources: string[] = []) {
  return [
    "default-src 'self'",
    "img-src 'self' data: blob:",
    // The distributed mode's presigned photo uploads go straight to the bucket's origin.
    ...(extraConnectSources.length > 0 ? [['connect-src', "'self'", ...extraConnectSources].join(' ')] : []),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The answers a browser must never keep (`no-store`): the API's and the
 * photos (`/objects/photos/<id>`; the embedded mode's uploads are under
 * `/objects/uploads/`). A phone with the installed app, signed out, holds
 * nothing of the vault; a photo in its HTTP cache would outlive the session.
 */
const NEVER_STORED = /^\/(?:api|objects)\//;

/** True when a policy forbids every framing (`frame-ancestors 'none'`). */
const forbidsFraming = (policy: unknown) => typeof policy === 'string' && /(?:^|;)\s*frame-ancestors\s+'none'\s*(?:;|$)/i.test(policy);

/**
 * The headers of every answer, built once (the strings are the same for
 * every request). A route that sets a stricter policy of its own (a photo:
 * nothing at all) keeps it.
 *
 * No `X-Frame-Options`: `frame-ancestors 'none'` in the policy header forbids
 * the same framing, and every browser the app runs in (its build targets
 * Vite's baseline: Chrome and Edge 111, Firefox 114, Safari 16.4; the app is
 * a module script, which no browser without CSP Level 2 runs) enforces it and
 * then ignores `X-Frame-Options` (CSP Level 3, "Relation to
 * X-Frame-Options"). Only a route's own policy without `frame-ancestors
 * 'none'` still gets `X-Frame-Options: DENY`, so no answer loses the refusal.
 */
export function addSecurityHeaders(fastify: FastifyInstance, extraConnectSources: string[] = []) {
  const policy = contentSecurityPolicy(extraConnectSources);
  const always: ReadonlyArray<readonly [string, string]> = [
    ['x-content-type-options', 'nosniff'],
    ['referrer-policy', 'no-referrer'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['cross-origin-resource-policy', 'same-origin'],
  ];
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const own = reply.getHeader('content-security-policy');
    if (own === undefined) reply.header('content-security-policy', policy);
    else if (!forbidsFraming(own)) reply.header('x-frame-options', 'DENY');
    for (const [name, value] of always) reply.header(name, value);
    if (NEVER_STORED.test(request.url)) reply.header('cache-control', 'no-store');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    done(null, payload);
  });
}
