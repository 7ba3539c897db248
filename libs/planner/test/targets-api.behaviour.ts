import { expect, it } from '@jest/globals';
import { ApiClient, TEST_OWNER as OWNER } from '@vault/testing';

/**
 * What the API promises for sign-in and targets, whatever the run mode. Each
 * mode's spec runs these against its own running vault.
 */
export function describeTargetsApi(baseUrl: () => string) {
  const signedIn = async () => {
    const client = new ApiClient(baseUrl());
    const login = await client.login(OWNER.username, OWNER.password);
    expect(login.status).toBe(200);
    return client;
  };

  it('reports the vault as not destroyed', async () => {
    const status = await new ApiClient(baseUrl()).request('GET', '/api/system/status');
    expect(status.status).toBe(200);
    expect(status.text).toBe('{"destroyed":false}');
  });

  it('signs in with a new HttpOnly, SameSite=Strict session cookie and names the owner', async () => {
    const client = new ApiClient(baseUrl());
    const login = await client.login(OWNER.username, OWNER.password);
    expect(login.status).toBe(200);
    expect(login.json).toEqual({ username: OWNER.username, name: OWNER.name });
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const first = client.sessionCookie;
    await client.login(OWNER.username, OWNER.password);
    expect(client.sessionCookie).not.toBe(first);
    expect((await client.request('GET', '/api/user')).json).toEqual({ username: OWNER.username, name: OWNER.name, globalAccess: false, signedIn: true });
  });

  it('creates a target with its title trimmed and lists it', async () => {
    const client = await signedIn();
    const created = await client.request('POST', '/api/targets', { title: ' Scout ', description: '   ' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ title: 'Scout', completed: false, completedAt: null });
    expect(created.json).not.toHaveProperty('description');
    const list = await client.request('GET', '/api/targets');
    expect(list.json.map((t: { title: string }) => t.title)).toContain('Scout');
  });

  it('sets completedAt on completion and clears it on reactivation', async () => {
    const client = await signedIn();
    const { json: target } = await client.request('POST', '/api/targets', { title: 'Extract', description: ' notes ' });
    expect(target.description).toBe('notes');
    const done = await client.request('PATCH', `/api/targets/${target.id}`, { completed: true });
    expect(done.json.completed).toBe(true);
    expect(Date.parse(done.json.completedAt)).not.toBeNaN();
    const again = await client.request('PATCH', `/api/targets/${target.id}`, { completed: false });
    expect(again.json).toMatchObject({ completed: false, completedAt: null });
    const removed = await client.request('DELETE', `/api/targets/${target.id}`);
    expect(removed.status).toBe(200);
    expect((await client.request('DELETE', `/api/targets/${target.id}`)).status).toBe(404);
  });

  it('refuses bad target input with a clear 4xx and changes nothing', async () => {
    const client = await signedIn();
    const before = (await client.request('GET', '/api/targets')).json;
    const cases: Array<[unknown, number, RegExp]> = [
      [{}, 400, /title: is required/],
      [{ title: '   ' }, 400, /title: must not be empty/],
      ['{not json', 400, /not valid JSON/],
      [{ title: 'x'.repeat(1_048_576) }, 413, /too large/],
      [{ title: 'x'.repeat(500_000) }, 400, /at most 200 characters/],
      [[1, 2], 400, /JSON object/],
      [{ title: 42 }, 400, /title: must be a string/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await client.request('POST', '/api/targets', body);
      expect([answer.status, answer.text]).toEqual([status, expect.stringMatching(message)]);
    }
    const unknown = await client.request('PATCH', '/api/targets/00000000-0000-4000-8000-000000000000', { completed: true });
    expect([unknown.status, unknown.text]).toEqual([404, 'Target not found']);
    const malformed = await client.request('PATCH', '/api/targets/nope', { completed: true });
    expect([malformed.status, malformed.text]).toEqual([400, 'id: must be a valid id']);
    const notBoolean = await client.request('PATCH', `/api/targets/${before[0]?.id ?? '00000000-0000-4000-8000-000000000000'}`, { completed: 'yes' });
    expect(notBoolean.status).toBe(400);
    expect((await client.request('GET', '/api/targets')).json).toEqual(before);
  });

  it('refuses blank and wrong credentials', async () => {
    const client = new ApiClient(baseUrl());
    const blankUser = await client.login('   ', OWNER.password);
    expect([blankUser.status, blankUser.text]).toEqual([400, 'username: must not be blank']);
    const blankPassword = await client.login(OWNER.username, '   ');
    expect(blankPassword.status).toBe(400);
    const wrong = await client.login(OWNER.username, 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Invalid credentials');
    const wrongUser = await client.login('intruder', OWNER.password);
    expect(wrongUser.status).toBe(401);
    const inQuery = await client.request('POST', `/api/login?username=${OWNER.username}&password=${OWNER.password}`, {});
    expect(inQuery.status).toBe(400);
    expect(client.sessionCookie).toBeUndefined();
  });

  it('answers 401 Unauthorized without a session, and after logout', async () => {
    const anonymous = await new ApiClient(baseUrl()).request('GET', '/api/targets');
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toContain('Unauthorized');
    const client = await signedIn();
    const old = client.sessionCookie;
    const logout = await client.request('GET', '/api/logout');
    expect([logout.status, logout.headers.get('location')]).toEqual([302, '/']);
    client.sessionCookie = old;
    expect((await client.request('GET', '/api/targets')).status).toBe(401);
  });

  it('sends navigation to /api/login to the login screen', async () => {
    const answer = await new ApiClient(baseUrl()).request('GET', '/api/login');
    expect([answer.status, answer.headers.get('location')]).toEqual([302, '/']);
  });
}
