import { expect, it } from '@jest/globals';
import { ApiClient, TEST_OWNER as OWNER } from '@vault/testing';

/** Global access: the vault made public, and made private again by the owner (spec 2.4, issue 6). */
export function describeGlobalAccess(baseUrl: () => string) {
  it('opens every screen and call to visitors while on, keeps the switches for the owner, and closes again', async () => {
    const owner = new ApiClient(baseUrl());
    await owner.login(OWNER.username, OWNER.password);
    const visitor = new ApiClient(baseUrl());
    expect((await visitor.request('GET', '/api/targets')).status).toBe(401);
    expect((await visitor.request('POST', '/api/settings/global-access')).status).toBe(401);

    const on = await owner.request('POST', '/api/settings/global-access');
    expect([on.status, on.json]).toEqual([200, { globalAccess: true }]);
    try {
      expect((await visitor.request('GET', '/api/user')).json).toEqual({ username: OWNER.username, name: OWNER.name, globalAccess: true, signedIn: false });
      expect((await owner.request('GET', '/api/user')).json).toMatchObject({ globalAccess: true, signedIn: true });
      expect((await visitor.request('GET', '/api/targets')).status).toBe(200);
      expect((await visitor.request('POST', '/api/targets', { title: 'Public target' })).status).toBe(201);
      // The switches and self-destruct still need the owner's own session.
      expect((await visitor.request('DELETE', '/api/settings/global-access')).status).toBe(401);
      expect((await visitor.request('POST', '/api/settings/self-destruct')).status).toBe(401);
    } finally {
      const off = await owner.request('DELETE', '/api/settings/global-access');
      expect([off.status, off.json]).toEqual([200, { globalAccess: false }]);
    }
    expect((await visitor.request('GET', '/api/targets')).status).toBe(401);
    expect((await visitor.request('GET', '/api/user')).status).toBe(401);

    let actions: string[] = [];
    for (let tries = 0; tries < 50 && !actions.includes('global_access_disabled'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      actions = (await owner.request('GET', '/api/logs')).json
        .filter((r: { ipAddress: string }) => r.ipAddress === owner.address)
        .map((r: { action: string }) => r.action);
    }
    expect(actions.slice(0, 2)).toEqual(['global_access_disabled', 'global_access_enabled']);
  });
}
