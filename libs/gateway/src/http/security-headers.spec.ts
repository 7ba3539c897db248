import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { addSecurityHeaders, contentSecurityPolicy } from './security-headers.js';

/** The policy every answer carried before the redundant directives went (2026-11). */
const PREVIOUS_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const SECURITY_HEADERS = [
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'cache-control',
  'strict-transport-security',
];

/**
 * What a browser enforces for a directive: its own sources, else those of the
 * directive it falls back to (CSP Level 3, "Get the effective directive" and
 * the fallback lists), else none at all (`undefined`: anything goes).
 */
const FALLBACKS: Record<string, string[]> = {
  'script-src-elem': ['script-src-elem', 'script-src', 'default-src'],
  'script-src-attr': ['script-src-attr', 'script-src', 'default-src'],
  'style-src-elem': ['style-src-elem', 'style-src', 'default-src'],
  'style-src-attr': ['style-src-attr', 'style-src', 'default-src'],
  'worker-src': ['worker-src', 'child-src', 'script-src', 'default-src'],
  'frame-src': ['frame-src', 'child-src', 'default-src'],
  'child-src': ['child-src', 'default-src'],
  'img-src': ['img-src', 'default-src'],
  'font-src': ['font-src', 'default-src'],
  'connect-src': ['connect-src', 'default-src'],
  'media-src': ['media-src', 'default-src'],
  'manifest-src': ['manifest-src', 'default-src'],
  'object-src': ['object-src', 'default-src'],
  // No fallback for these.
  'base-uri': ['base-uri'],
  'form-action': ['form-action'],
  'frame-ancestors': ['frame-ancestors'],
  sandbox: ['sandbox'],
};

function effective(policy: string, directive: string): string | undefined {
  const directives = new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name.toLowerCase(), [...sources].sort().join(' ')]),
  );
  for (const name of FALLBACKS[directive]) if (directives.has(name)) return directives.get(name);
  return undefined;
}

/** Bytes on the wire of the security headers of an answer: `name: value\r\n` each. */
const headerBytes = (headers: Record<string, unknown>) =>
  SECURITY_HEADERS.filter((name) => headers[name] !== undefined).reduce((n, name) => n + Buffer.byteLength(`${name}: ${String(headers[name])}\r\n`), 0);

describe('contentSecurityPolicy', () => {
  it('enforces what the previous, longer policy did, for every directive', () => {
    for (const directive of Object.keys(FALLBACKS)) {
      expect([directive, effective(contentSecurityPolicy(), directive)]).toEqual([directive, effective(PREVIOUS_POLICY, directive)]);
    }
  });

  it('repeats no source list of default-src', () => {
    const policy = contentSecurityPolicy();
    expect(policy).toBe("default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src|style-src|font-src|connect-src/);
  });

  it('names the bucket in connect-src, beside the vault itself, when uploads go there', () => {
    const policy = contentSecurityPolicy(['https://photos.vault.example']);
    expect(effective(policy, 'connect-src')).toBe("'self' https://photos.vault.example");
    expect(effective(policy, 'script-src-elem')).toBe("'self'");
  });
});

describe('addSecurityHeaders', () => {
  let app: FastifyInstance;
  let base: string;
  const get = async (path: string) => Object.fromEntries((await fetch(base + path)).headers) as Record<string, string | undefined>;

  beforeAll(async () => {
    app = Fastify();
    addSecurityHeaders(app);
    app.get('/api/targets', async () => [{ id: 1 }]);
    app.get('/', async (_request, reply) => reply.type('text/html').send('<!doctype html>'));
    // A route with a stricter policy of its own, as the photos have.
    app.get('/own-strict', async (_request, reply) => reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'; sandbox").send('x'));
    // A route with a policy of its own that says nothing about framing.
    app.get('/own-lax', async (_request, reply) => reply.header('content-security-policy', "default-src 'none'").send('x'));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('sends the policy, nosniff, no referrer and both cross-origin policies on every answer, no-store on the API and the photos', async () => {
    for (const url of ['/', '/api/targets', '/objects/photos/1', '/nowhere']) {
      const headers = await get(url);
      expect(headers).toMatchObject({
        'content-security-policy': contentSecurityPolicy(),
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(headers['cache-control']).toBe(url.startsWith('/api/') || url.startsWith('/objects/') ? 'no-store' : undefined);
      // Over plain HTTP no HSTS (a browser ignores it there).
      expect(headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('leaves X-Frame-Options out where frame-ancestors forbids framing, and keeps DENY where a route policy does not', async () => {
    expect((await get('/'))['x-frame-options']).toBeUndefined();
    const strict = { headers: await get('/own-strict') };
    expect(strict.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    expect(strict.headers['x-frame-options']).toBeUndefined();
    const lax = { headers: await get('/own-lax') };
    expect(lax.headers['content-security-policy']).toBe("default-src 'none'");
    expect(lax.headers['x-frame-options']).toBe('DENY');
  });

  it('sends 97 fewer bytes of them on an API answer than before (422 -> 325)', async () => {
    const headers = await get('/api/targets');
    const before = Buffer.byteLength(
      `${[
        `content-security-policy: ${PREVIOUS_POLICY}`,
        'x-content-type-options: nosniff',
        'x-frame-options: DENY',
        'referrer-policy: no-referrer',
        'cross-origin-opener-policy: same-origin',
        'cross-origin-resource-policy: same-origin',
        'cache-control: no-store',
      ].join('\r\n')}\r\n`,
    );
    expect(before).toBe(422);
    expect(headerBytes(headers)).toBe(325);
  });
});
