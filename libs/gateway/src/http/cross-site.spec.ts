import { describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { isSameOrigin } from './cross-site.js';

const request = (headers: Record<string, string>, protocol = 'http') =>
  ({ headers, host: headers.host ?? '127.0.0.1:3000', protocol }) as unknown as FastifyRequest;

describe('isSameOrigin', () => {
  it('takes a page of the origin the request was sent to, and a request without Origin or Referer', () => {
    expect(isSameOrigin(request({ origin: 'http://127.0.0.1:3000' }))).toBe(true);
    expect(isSameOrigin(request({ host: 'LOCALHOST:3000', origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' }))).toBe(true);
    expect(isSameOrigin(request({ host: 'vault.acme.example', referer: 'https://vault.acme.example/journal' }, 'https'))).toBe(true);
    expect(isSameOrigin(request({ host: 'vault.acme.example:443', origin: 'https://vault.acme.example' }, 'https'))).toBe(true);
    expect(isSameOrigin(request({ host: '[::1]:3000', origin: 'http://[::1]:3000' }))).toBe(true);
    // A proxy that ends TLS without being trusted to say so: the vault sees http, the page is https.
    expect(isSameOrigin(request({ host: 'vault.acme.example', origin: 'https://vault.acme.example' }))).toBe(true);
    expect(isSameOrigin(request({}))).toBe(true);
    expect(isSameOrigin(request({ 'sec-fetch-site': 'none' }))).toBe(true);
  });

  it('refuses another port of the same host, which is the same site: SameSite cookies go along', () => {
    expect(isSameOrigin(request({ origin: 'http://127.0.0.1:1' }))).toBe(false);
    expect(isSameOrigin(request({ origin: 'http://127.0.0.1' }))).toBe(false);
    expect(isSameOrigin(request({ host: 'vault.acme.example', origin: 'http://vault.acme.example:8080' }))).toBe(false);
    expect(isSameOrigin(request({ host: 'vault.acme.example', origin: 'https://vault.acme.example:8443' }, 'https'))).toBe(false);
    expect(isSameOrigin(request({ referer: 'http://127.0.0.1:3001/page' }))).toBe(false);
  });

  it('refuses another name of the vault, another host and, over TLS, a plain-HTTP page', () => {
    expect(isSameOrigin(request({ host: '127.0.0.1:3000', origin: 'http://localhost:3000' }))).toBe(false);
    expect(isSameOrigin(request({ origin: 'http://rebound.example:3000' }))).toBe(false);
    expect(isSameOrigin(request({ host: 'vault.acme.example', origin: 'http://vault.acme.example.evil.example' }))).toBe(false);
    expect(isSameOrigin(request({ host: 'vault.acme.example', origin: 'http://vault.acme.example' }, 'https'))).toBe(false);
  });

  it('refuses null, other schemes, garbage and whatever the browser does not call same-origin', () => {
    const refused: Array<Record<string, string>> = [
      { origin: 'null' },
      { origin: 'file:///tmp/x.html' },
      { referer: 'not a url' },
      { origin: 'http://127.0.0.1:99999' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:3000' },
      { 'sec-fetch-site': 'something-new' },
    ];
    for (const headers of refused) expect([headers, isSameOrigin(request(headers))]).toEqual([headers, false]);
  });
});
