import { expect, it } from '@jest/globals';
import { ApiClient } from '@vault/testing';
import { OWNER } from './stack.js';

/** The access log reaches audit-svc asynchronously; poll until the expected rows are in. */
async function logsOf(client: ApiClient, address: string, expected: number) {
  for (let tries = 0; tries < 50; tries++) {
    const rows = (await client.request('GET', '/api/logs')).json.filter((r: { ipAddress: string }) => r.ipAddress === address);
    if (rows.length >= expected) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`fewer than ${expected} access log rows for ${address}`);
}

/** Sign-in protection, cross-site refusal, headers and the access log (spec 2.13, 6, 8; issue 6). */
export function describeGuard(baseUrl: () => string, lockoutSeconds: number) {
  it('refuses a state-changing call from a foreign Origin, even with a valid session, and changes nothing', async () => {
    const client = new ApiClient(baseUrl());
    await client.login(OWNER.username, OWNER.password);
    const before = (await client.request('GET', '/api/targets')).json;
    const foreign = await client.request('POST', '/api/targets', { title: 'Planted' }, { origin: 'https://evil.example' });
    expect([foreign.status, foreign.text]).toEqual([403, 'Cross-site request refused']);
    const crossSite = await client.request('DELETE', `/api/targets/${before[0]?.id ?? '00000000-0000-4000-8000-000000000000'}`, undefined, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect((await client.request('GET', '/api/targets')).json).toEqual(before);
    const sameOrigin = await client.request('POST', '/api/targets', { title: 'Same origin' }, { origin: baseUrl() });
    expect(sameOrigin.status).toBe(201);
  });

  it('sends the security headers on pages and on the API', async () => {
    const client = new ApiClient(baseUrl());
    for (const path of ['/', '/api/system/status', '/api/targets']) {
      const { headers } = await client.request('GET', path);
      // Scripts from the vault's own origin only: script-src, or default-src, its fallback, when there is none.
      const policy = headers.get('content-security-policy') ?? '';
      const directive = (name: string) => policy.split(';').map((d) => d.trim().split(/\s+/)).find(([n]) => n === name)?.slice(1).join(' ');
      expect(directive('script-src') ?? directive('default-src')).toBe("'self'");
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('locks an address out after five wrong passwords, refuses the right one until the lockout ends, and logs every attempt', async () => {
    const attacker = new ApiClient(baseUrl());
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await attacker.request('POST', '/api/login', { username: OWNER.username, password: `guess ${i}` }, { 'user-agent': 'guesser/1.0' }));
    expect(answers.slice(0, 4).map((a) => [a.status, a.text])).toEqual(Array(4).fill([401, 'Invalid credentials']));
    for (const later of answers.slice(4)) expect([later.status, later.text]).toEqual([423, expect.stringContaining('locked')]);
    const right = await attacker.login(OWNER.username, OWNER.password);
    expect(right.status).toBe(423);
    // The owner elsewhere is not locked out by the stranger.
    expect((await new ApiClient(baseUrl()).login(OWNER.username, OWNER.password)).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, lockoutSeconds * 1000 + 200));
    expect((await attacker.login(OWNER.username, OWNER.password)).status).toBe(200);

    const rows = await logsOf(attacker, attacker.address, 12);
    const actions = rows.map((r: { action: string }) => r.action).reverse();
    expect(actions).toEqual([...Array(4).fill('failed_login'), ...Array(7).fill('account_locked'), 'login_success']);
    expect(rows.every((r: { userAgent?: string; ipAddress: string }) => r.ipAddress === attacker.address && r.userAgent)).toBe(true);
    expect(rows.filter((r: { userAgent?: string }) => r.userAgent === 'guesser/1.0')).toHaveLength(10);
  });

  it('rate-limits sign-in attempts per address with the spec\'s message', async () => {
    const client = new ApiClient(baseUrl());
    const statuses = [];
    for (let i = 0; i < 13; i++) statuses.push((await client.request('POST', '/api/login', { username: OWNER.username, password: '' })).status);
    expect(statuses.slice(0, 12).every((s) => s === 400)).toBe(true);
    const limited = await client.login(OWNER.username, OWNER.password);
    expect([limited.status, limited.text]).toEqual([429, expect.stringContaining('Rate limit')]);
    const viewer = new ApiClient(baseUrl());
    await viewer.login(OWNER.username, OWNER.password);
    const rows = await logsOf(viewer, client.address, 13);
    expect(rows[0]).toMatchObject({ action: 'rate_limited', success: false });
  });

  it('logs logouts and protected calls without a session, newest first', async () => {
    const client = new ApiClient(baseUrl());
    expect((await client.request('GET', '/api/targets')).status).toBe(401);
    await client.login(OWNER.username, OWNER.password);
    await client.request('GET', '/api/logout');
    const viewer = new ApiClient(baseUrl());
    await viewer.login(OWNER.username, OWNER.password);
    const rows = await logsOf(viewer, client.address, 3);
    expect(rows.map((r: { action: string }) => r.action)).toEqual(['logout', 'login_success', 'unauthorized']);
    const times = rows.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await viewer.request('GET', '/api/logs?limit=abc')).status).toBe(400);
  });

  it('believes X-Forwarded-For only from a configured proxy', async () => {
    // The stacks trust 127.0.0.1; the header's last hop is the client the proxy saw.
    const client = new ApiClient(baseUrl(), '10.77.77.77');
    await client.request('GET', '/api/targets');
    const viewer = new ApiClient(baseUrl());
    await viewer.login(OWNER.username, OWNER.password);
    await logsOf(viewer, '10.77.77.77', 1);
  });
}
