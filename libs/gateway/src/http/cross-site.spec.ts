import { describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_ALLOWED_HOSTS } from './allowed-hosts.js';
import { isSameSite } from './cross-site.js';

const request = (headers: Record<string, string>) => ({ headers, host: headers.host ?? '127.0.0.1:3000' }) as unknown as FastifyRequest;

describe('isSameSite', () => {
  it('takes a page of an allowed host, whichever allowed name the request came by', () => {
    expect(isSameSite(request({ origin: 'http://127.0.0.1:3000' }), DEFAULT_ALLOWED_HOSTS)).toBe(true);
    expect(isSameSite(request({ host: '127.0.0.1:3000', origin: 'http://localhost:3000' }), DEFAULT_ALLOWED_HOSTS)).toBe(true);
    expect(isSameSite(request({ referer: 'https://vault.acme.example/journal' }), ['vault.acme.example'])).toBe(true);
    expect(isSameSite(request({}), DEFAULT_ALLOWED_HOSTS)).toBe(true);
  });

  it('refuses an Origin outside the allowed hosts even when the Host claims the same name (DNS rebinding)', () => {
    expect(isSameSite(request({ host: 'rebound.example', origin: 'http://rebound.example' }), DEFAULT_ALLOWED_HOSTS)).toBe(false);
    expect(isSameSite(request({ origin: 'http://rebound.example:3000' }), DEFAULT_ALLOWED_HOSTS)).toBe(false);
    expect(isSameSite(request({ origin: 'https://vault.acme.example:8443' }), ['vault.acme.example:443'])).toBe(false);
  });

  it('refuses null, other schemes, garbage and what the browser calls cross-site', () => {
    const refused: Array<Record<string, string>> = [
      { origin: 'null' },
      { origin: 'file:///tmp/x.html' },
      { referer: 'not a url' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of refused) expect(isSameSite(request(headers), DEFAULT_ALLOWED_HOSTS)).toBe(false);
  });
});
