import { expect, it } from '@jest/globals';
import { ApiClient, TEST_OWNER as OWNER } from '@vault/testing';

/** The access log reaches audit-svc asynchronously; poll until the expected rows are in. */
async function logsOf(client: ApiClient, address: string, expected: number) {
  for (let tries = 0; tries < 50; tries++) {
    const rows = (await client.request('GET', '/api/logs')).json.filter((r: { ipAddress: string }) => r.ipAddress === address);
    if (rows.length >= expected) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`fewer than ${expected} access log rows for ${address}`);
}

/**
 * The access log through the gateway, whatever the run mode: every sign-in
 * attempt (a lockout's and a rate limit's too), logout and call without a
 * session is recorded by audit-svc, with the address a trusted proxy names
 * (spec 2.13, 6; issue 6). `lockoutSeconds` is the stack's lockout period.
 */
export function describeAccessLogApi(baseUrl: () => string, lockoutSeconds: number) {
  it('locks an address out after five wrong passwords, refuses the right one until the lockout ends, and logs every attempt', async () => {
    const attacker = new ApiClient(baseUrl());
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push(await attacker.request('POST', '/api/login', { username: OWNER.username, password: `guess ${i}` }, { 'user-agent': 'guesser/1.0' }));
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

  it("rate-limits sign-in attempts per address with the spec's message", async () => {
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
