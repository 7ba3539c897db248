import { expect, it } from '@jest/globals';
import { ApiClient } from '@vault/testing';
import { OWNER } from './stack.js';

/** The gateway's guard: cross-site refusal and security headers (spec 6, 8; issue 6). The access log's suite is audit's. */
export function describeGuard(baseUrl: () => string) {
  it('refuses a state-changing call from a foreign Origin, even with a valid session, and changes nothing', async () => {
    const client = new ApiClient(baseUrl());
    await client.login(OWNER.username, OWNER.password);
    const before = (await client.request('GET', '/api/targets')).json;
    const foreign = await client.request('POST', '/api/targets', { title: 'Planted' }, { origin: 'https://evil.example' });
    expect([foreign.status, foreign.text]).toEqual([403, 'Cross-site request refused']);
    const crossSite = await client.request('DELETE', `/api/targets/${before[0]?.id ?? '00000000-0000-4000-8000-000000000000'}`, undefined, {
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    expect((await client.request('GET', '/api/targets')).json).toEqual(before);
    const sameOrigin = await client.request('POST', '/api/targets', { title: 'Same origin' }, { origin: baseUrl() });
    expect(sameOrigin.status).toBe(201);
  });

  it('refuses writes from another port of its own host (the same site, so SameSite cookies go along) and changes nothing', async () => {
    const client = new ApiClient(baseUrl());
    await client.login(OWNER.username, OWNER.password);
    const otherPort = new URL(baseUrl());
    otherPort.port = '1';
    const before = { targets: (await client.request('GET', '/api/targets')).json, user: (await client.request('GET', '/api/user')).json };
    // As browsers without Fetch Metadata send them: the Origin, or only the Referer.
    const attempts: Array<[string, string, unknown, Record<string, string>]> = [
      ['POST', '/api/targets', { title: 'Planted' }, { origin: otherPort.origin }],
      ['POST', '/api/settings/global-access', undefined, { origin: otherPort.origin }],
      ['POST', '/api/settings/self-destruct', undefined, { origin: otherPort.origin }],
      ['POST', '/api/settings/self-destruct', undefined, { referer: `${otherPort.origin}/` }],
    ];
    for (const [method, path, body, headers] of attempts) {
      const answer = await client.request(method, path, body, headers);
      expect([path, answer.status, answer.text]).toEqual([path, 403, 'Cross-site request refused']);
    }
    expect({ targets: (await client.request('GET', '/api/targets')).json, user: (await client.request('GET', '/api/user')).json }).toEqual(before);
  });

  it('sends the security headers on pages and on the API', async () => {
    const client = new ApiClient(baseUrl());
    for (const path of ['/', '/api/system/status', '/api/targets']) {
      const { headers } = await client.request('GET', path);
      // Scripts from the vault's own origin only: script-src, or default-src, its fallback, when there is none.
      const policy = headers.get('content-security-policy') ?? '';
      const directive = (name: string) =>
        policy
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .find(([n]) => n === name)
          ?.slice(1)
          .join(' ');
      expect(directive('script-src') ?? directive('default-src')).toBe("'self'");
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
}
