import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SESSION_COOKIE } from '../session/session-cookie.js';
import { WebApp } from './web-app.js';

const INDEX = '<!doctype html><html><head><title>VAULT</title></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('vault '.repeat(400))});`;
const HINTS = {
  '/journal': { modules: ['/assets/shell-1.js', '/assets/journal-2.js'], reads: ['/api/journal?limit=50&offset=0', '/api/photos'] },
};
const WELL_FORMED_SESSION = 'a'.repeat(43);
const WORKER = "self.addEventListener('fetch', () => {});";
const MANIFEST = JSON.stringify({ name: 'VAULT', start_url: '/', display: 'standalone' });

describe('WebApp', () => {
  let dist: string;
  let server: FastifyInstance;

  /** One GET over a real socket, its bytes as sent (no client-side decoding). */
  function fetchRaw({ url, headers = {}, cookies }: { url: string; headers?: Record<string, string>; cookies?: Record<string, string> }) {
    const { port } = server.server.address() as AddressInfo;
    const cookie = cookies
      ? Object.entries(cookies)
          .map(([name, value]) => `${name}=${value}`)
          .join('; ')
      : undefined;
    return new Promise<{ statusCode: number; headers: IncomingHttpHeaders; rawPayload: Buffer; body: string }>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: url, headers: cookie ? { ...headers, cookie } : headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const rawPayload = Buffer.concat(chunks);
          resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, rawPayload, body: rawPayload.toString('utf8') });
        });
      }).on('error', reject);
    });
  }

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'vault-web-app-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets/main-0.js'), SCRIPT);
    writeFileSync(join(dist, 'assets/main-0.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(join(dist, 'route-hints.json'), JSON.stringify(HINTS));
    writeFileSync(join(dist, 'sw.js'), WORKER);
    writeFileSync(join(dist, 'manifest.webmanifest'), MANIFEST);
    const web = new WebApp(dist);
    server = Fastify();
    await server.register(fastifyCookie);
    server.addHook('onRequest', (request, reply, done) => {
      if (!web.trySendFile(request, reply)) done();
    });
    server.setNotFoundHandler((request, reply) => web.sendIndex(request, reply));
    await server.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the build’s brotli copy to clients that accept br, gzip to the others, and never the copy itself', async () => {
    const br = await fetchRaw({ url: '/assets/main-0.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.headers['cache-control']).toContain('immutable');

    const gzip = await fetchRaw({ url: '/assets/main-0.js', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await fetchRaw({ url: '/assets/main-0.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);

    // Not files of the app: both fall through to the page.
    for (const url of ['/assets/main-0.js.br', '/route-hints.json']) {
      const response = await fetchRaw({ url });
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toBe(INDEX);
    }
  });

  it('serves the service worker from the root, revalidated on every use, and the manifest as a manifest', async () => {
    const worker = await fetchRaw({ url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.body).toBe(WORKER);

    const manifest = await fetchRaw({ url: '/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toBe('application/manifest+json');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.body).toBe(MANIFEST);
  });

  it('names a screen’s code and first reads in its page for a browser with a session cookie', async () => {
    const response = await fetchRaw({ url: '/journal/', cookies: { [SESSION_COOKIE]: WELL_FORMED_SESSION } });
    expect(response.statusCode).toBe(200);
    expect(response.headers.vary).toBe('accept-encoding, cookie');
    expect(response.body).toContain('<link rel="modulepreload" crossorigin href="/assets/shell-1.js" />');
    expect(response.body).toContain('<link rel="modulepreload" crossorigin href="/assets/journal-2.js" />');
    expect(response.body).toContain('<link rel="preload" href="/api/journal?limit=50&amp;offset=0" as="fetch" crossorigin="anonymous" />');
    expect(response.body).toContain('<link rel="preload" href="/api/photos" as="fetch" crossorigin="anonymous" />');
    expect(response.body.indexOf('modulepreload')).toBeLessThan(response.body.indexOf('</head>'));

    // A revalidation gets the same page's tag back as 304.
    const again = await fetchRaw({
      url: '/journal',
      cookies: { [SESSION_COOKIE]: WELL_FORMED_SESSION },
      headers: { 'if-none-match': response.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('serves the plain page without a session cookie, with a malformed one, and on paths without hints', async () => {
    for (const asked of [
      { url: '/journal' },
      { url: '/journal', cookies: { [SESSION_COOKIE]: 'not-a-session' } },
      { url: '/targets', cookies: { [SESSION_COOKIE]: WELL_FORMED_SESSION } },
    ]) {
      const response = await fetchRaw(asked);
      expect(response.body).toBe(INDEX);
    }
  });
});
