import { expect, it, jest } from '@jest/globals';
import { ApiClient, TEST_OWNER as OWNER } from '@vault/testing';
import { Secret, TOTP } from 'otpauth';

/** What a test reaches inside the vault under test: the gateway's clock, to step past the re-authentication window. */
export interface SecondFactorVault {
  url: () => string;
  clock: () => { now(): number };
}

const STEP_MS = 30_000;
const SIX_MINUTES = 6 * 60_000;

/** The code an authenticator app shows at `at` for `secret` (computed here, as the app would). */
export function totpCode(secret: string, at = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });
}

/**
 * The access log of `address`, oldest first, once it has as many rows as
 * `expected` names. The log orders by time to the millisecond: the events of
 * one request (a factor's check and the sign-in it completes) may share one,
 * so such a group is written as an array and compared in sorted order.
 */
export async function actionsOf(viewer: ApiClient, address: string, expected: Array<string | string[]>): Promise<Array<string | string[]>> {
  const count = expected.flat().length;
  let actions: string[] = [];
  for (let tries = 0; tries < 60 && actions.length < count; tries++) {
    if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    const rows = (await viewer.request('GET', '/api/logs')).json.filter((r: { ipAddress: string }) => r.ipAddress === address);
    actions = rows.map((r: { action: string }) => r.action).reverse();
  }
  let at = 0;
  return expected
    .map((item) => {
      const size = Array.isArray(item) ? item.length : 1;
      const taken = actions.slice(at, at + size);
      at += size;
      return Array.isArray(item) ? taken.sort() : (taken[0] ?? '(missing)');
    })
    .concat(actions.slice(at));
}

/** `actionsOf` as an assertion: the groups of `expected` sorted, to compare with what the log holds. */
export async function expectActions(viewer: ApiClient, address: string, expected: Array<string | string[]>) {
  expect(await actionsOf(viewer, address, expected)).toEqual(expected.map((item) => (Array.isArray(item) ? [...item].sort() : item)));
}

async function signedIn(vault: SecondFactorVault) {
  const owner = new ApiClient(vault.url());
  const login = await owner.login(OWNER.username, OWNER.password);
  expect([login.status, login.status === 200 ? 'signed in' : login.json]).toEqual([200, 'signed in']);
  return owner;
}

/** Enrols an authenticator app for the signed-in `owner`: its secret, and the recovery codes of a first factor. */
export async function enrolTotp(owner: ApiClient) {
  const started = await owner.request('POST', '/api/second-factor/totp', { name: 'Phone' });
  expect(started.status).toBe(200);
  expect(started.json.otpauthUri).toMatch(/^otpauth:\/\/totp\/Vault:agent\?/);
  expect(started.json.qrCode).toMatch(/^data:image\/png;base64,/);
  const { id, secret } = started.json as { id: string; secret: string };
  // Not yet counted: an app that never sent its first code is no factor.
  expect((await owner.request('GET', '/api/second-factor')).json.factors).toEqual([]);
  const wrong = await owner.request('POST', '/api/second-factor/totp/confirm', { id, code: '000000' === totpCode(secret) ? '111111' : '000000' });
  expect([wrong.status, wrong.text]).toEqual([400, 'code: is not the code the authenticator app shows now']);
  const confirmed = await owner.request('POST', '/api/second-factor/totp/confirm', { id, code: totpCode(secret) });
  expect(confirmed.status).toBe(200);
  return { id, secret, recoveryCodes: confirmed.json.recoveryCodes as string[] | undefined };
}

/** Sign-in's first step with a factor enrolled: 202 and a pending sign-in, no session. */
async function passwordStep(client: ApiClient) {
  const answer = await client.login(OWNER.username, OWNER.password);
  expect(answer.status).toBe(202);
  return answer;
}

/** Removes every factor (the last with the password), so the vault is as the other suites expect it. */
async function removeAll(owner: ApiClient) {
  const { factors } = (await owner.request('GET', '/api/second-factor')).json as { factors: Array<{ id: string }> };
  for (const factor of factors) expect((await owner.request('DELETE', `/api/second-factor/${factor.id}`, { password: OWNER.password })).status).toBe(200);
}

/**
 * The second factor over HTTP (issue 19): an authenticator app and recovery
 * codes, the pending sign-in between the password and the factor, the
 * lockout they share, the access log, and the five-minute re-authentication
 * of the drastic actions. Leaves the vault without a factor.
 */
export function describeSecondFactor(vault: SecondFactorVault) {
  it('enrols an authenticator app confirmed by a first code; a sign-in then needs a code, which is accepted once and not from two windows ago', async () => {
    const owner = await signedIn(vault);
    const { secret, recoveryCodes } = await enrolTotp(owner);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const overview = (await owner.request('GET', '/api/second-factor')).json;
    expect(overview).toMatchObject({ recoveryCodesLeft: 10, passkeySignIn: false, factors: [{ kind: 'totp', name: 'Phone' }] });

    const client = new ApiClient(vault.url());
    const pending = await passwordStep(client);
    expect(pending.json).toEqual({ secondFactor: ['totp', 'recovery'] });
    expect(pending.headers.get('set-cookie')).toMatch(/^vault_sign_in=[\w-]{43};.* Path=\/api\/login;.* HttpOnly; SameSite=Strict/);
    // The pending sign-in is no session: not as it is sent, nor with its id put in the session cookie.
    expect((await client.request('GET', '/api/targets')).status).toBe(401);
    const pendingId = client.sessionCookie!.split('=')[1];
    expect((await client.request('GET', '/api/targets', undefined, { cookie: `vault_session=${pendingId}` })).status).toBe(401);

    // The code of the next step: the confirmation used this step's (no replay), and one step of drift is allowed.
    const code = totpCode(secret, Date.now() + STEP_MS);
    const done = await client.request('POST', '/api/login/second-factor', { code });
    expect([done.status, done.json]).toEqual([200, { username: OWNER.username, name: OWNER.name }]);
    expect((await client.request('GET', '/api/targets')).status).toBe(200);

    const again = new ApiClient(vault.url());
    await passwordStep(again);
    const replayed = await again.request('POST', '/api/login/second-factor', { code });
    expect([replayed.status, replayed.text]).toEqual([401, 'Invalid code']);
    const old = await again.request('POST', '/api/login/second-factor', { code: totpCode(secret, Date.now() - 2 * STEP_MS) });
    expect([old.status, old.text]).toEqual([401, 'Invalid code']);
    expect((await again.request('GET', '/api/targets')).status).toBe(401);
    // The calls without a session are logged as ever ("unauthorized").
    await expectActions(owner, again.address, ['password_accepted', 'second_factor_failed', 'second_factor_failed', 'unauthorized']);
    await expectActions(owner, client.address, ['password_accepted', 'unauthorized', 'unauthorized', ['second_factor_succeeded', 'login_success']]);
    await removeAll(owner);
  });

  it('signs in once with each recovery code, never twice', async () => {
    const owner = await signedIn(vault);
    const { recoveryCodes } = await enrolTotp(owner);
    const [first] = recoveryCodes!;
    const client = new ApiClient(vault.url());
    await passwordStep(client);
    // Written as read off paper: upper case, a space for the dash.
    const used = await client.request('POST', '/api/login/second-factor', { code: first.toUpperCase().replace('-', ' ') });
    expect(used.status).toBe(200);
    expect((await client.request('GET', '/api/targets')).status).toBe(200);
    expect((await owner.request('GET', '/api/second-factor')).json.recoveryCodesLeft).toBe(9);

    const later = new ApiClient(vault.url());
    await passwordStep(later);
    const reused = await later.request('POST', '/api/login/second-factor', { code: first });
    expect([reused.status, reused.text]).toEqual([401, 'Invalid code']);
    expect((await later.request('GET', '/api/targets')).status).toBe(401);
    await expectActions(owner, client.address, ['password_accepted', ['recovery_code_used', 'login_success']]);
    await expectActions(owner, later.address, ['password_accepted', 'second_factor_failed', 'unauthorized']);
    await removeAll(owner);
  });

  it('locks the address at the fifth wrong code, as at the fifth wrong password, and counts both in one streak', async () => {
    const owner = await signedIn(vault);
    const { secret } = await enrolTotp(owner);
    const guesser = new ApiClient(vault.url());
    await passwordStep(guesser);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await guesser.request('POST', '/api/login/second-factor', { code: String(100000 + i) }));
    expect(answers.slice(0, 4).map((a) => [a.status, a.text])).toEqual(Array(4).fill([401, 'Invalid code']));
    expect([answers[4].status, answers[4].text]).toEqual([423, 'Account locked after repeated failed sign-ins. Try again later.']);
    // Locked: the right code does not open the vault either.
    expect((await guesser.request('POST', '/api/login/second-factor', { code: totpCode(secret, Date.now() + STEP_MS) })).status).toBe(423);
    await expectActions(owner, guesser.address, ['password_accepted', ...Array(4).fill('second_factor_failed'), 'account_locked', 'account_locked']);

    // Two wrong passwords, the right one (no failure, but no fresh start either), then wrong codes: the fifth failure locks.
    const mixed = new ApiClient(vault.url());
    for (let i = 0; i < 2; i++) expect((await mixed.login(OWNER.username, `guess ${i}`)).status).toBe(401);
    await passwordStep(mixed);
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await mixed.request('POST', '/api/login/second-factor', { code: String(200000 + i) })).status);
    expect(codes).toEqual([401, 401, 423]);
    await expectActions(owner, mixed.address, [
      'failed_login',
      'failed_login',
      'password_accepted',
      'second_factor_failed',
      'second_factor_failed',
      'account_locked',
    ]);
    await removeAll(owner);
  });

  it('keeps the last factor unless the password is given, and then signs in with the password alone again', async () => {
    const owner = await signedIn(vault);
    const { id } = await enrolTotp(owner);
    const bare = await owner.request('DELETE', `/api/second-factor/${id}`);
    expect([bare.status, bare.text]).toEqual([400, 'password: is required to remove the last second factor']);
    const wrong = await owner.request('DELETE', `/api/second-factor/${id}`, { password: 'not the password at all' });
    expect([wrong.status, wrong.text]).toEqual([403, 'password: is not the owner password']);
    const renamed = await owner.request('PATCH', `/api/second-factor/${id}`, { name: 'Old phone' });
    expect([renamed.status, renamed.json.name]).toEqual([200, 'Old phone']);
    const removed = await owner.request('DELETE', `/api/second-factor/${id}`, { password: OWNER.password });
    expect([removed.status, removed.json]).toEqual([200, { factors: [], recoveryCodesLeft: 0, passkeySignIn: false }]);
    expect((await new ApiClient(vault.url()).login(OWNER.username, OWNER.password)).status).toBe(200);
    await expectActions(owner, owner.address, ['login_success', 'second_factor_added', 'second_factor_removed']);
  });

  it('refuses global access, self-destruct, export and factor changes with a sign-in older than five minutes, changing nothing, until the owner re-authenticates', async () => {
    const owner = await signedIn(vault);
    const clock = jest.spyOn(vault.clock(), 'now');
    try {
      clock.mockImplementation(() => Date.now() + SIX_MINUTES);
      for (const path of ['/api/settings/global-access', '/api/settings/self-destruct', '/api/second-factor/totp']) {
        const refused = await owner.request('POST', path, path.includes('second-factor') ? {} : undefined);
        expect([path, refused.status, refused.text]).toEqual([
          path,
          403,
          expect.stringMatching(/^Re-authentication required: the last sign-in was more than 5 minutes ago/),
        ]);
      }
      expect((await owner.request('GET', '/api/user')).json).toMatchObject({ globalAccess: false, signedIn: true });
      expect((await owner.request('GET', '/api/system/status')).json).toEqual({ destroyed: false });
      expect((await owner.request('GET', '/api/second-factor')).json.factors).toEqual([]);
      // Turning global access off is never refused: it closes the vault.
      expect((await owner.request('DELETE', '/api/settings/global-access')).status).toBe(200);

      const wrong = await owner.request('POST', '/api/reauthenticate', { password: 'not the password at all' });
      expect([wrong.status, wrong.text]).toEqual([403, 'password: is not the owner password']);
      expect((await owner.request('POST', '/api/settings/global-access')).status).toBe(403);
      expect((await owner.request('POST', '/api/reauthenticate', { password: OWNER.password })).status).toBe(200);
      const on = await owner.request('POST', '/api/settings/global-access');
      expect([on.status, on.json]).toEqual([200, { globalAccess: true }]);
      expect((await owner.request('DELETE', '/api/settings/global-access')).status).toBe(200);

      // With a factor enrolled, the password alone no longer re-authenticates.
      clock.mockImplementation(() => Date.now());
      const { secret } = await enrolTotp(owner);
      clock.mockImplementation(() => Date.now() + 2 * SIX_MINUTES);
      const passwordOnly = await owner.request('POST', '/api/reauthenticate', { password: OWNER.password });
      expect([passwordOnly.status, passwordOnly.text]).toEqual([400, 'code: is required: a second factor is enrolled (or answer with the passkey)']);
      expect((await owner.request('POST', '/api/settings/self-destruct')).status).toBe(403);
      const export_ = await owner.request('POST', '/api/settings/export', { password: OWNER.password });
      expect([export_.status, export_.text]).toEqual([403, expect.stringMatching(/^Re-authentication required/)]);
      expect((await owner.request('POST', '/api/reauthenticate', { password: OWNER.password, code: totpCode(secret, Date.now() + STEP_MS) })).status).toBe(200);
      expect((await owner.request('POST', '/api/settings/global-access')).status).toBe(200);
      expect((await owner.request('DELETE', '/api/settings/global-access')).status).toBe(200);
      await expectActions(owner, owner.address, [
        'login_success',
        'reauthentication_required',
        'reauthentication_required',
        'reauthentication_required',
        'global_access_disabled',
        'reauthentication_failed',
        'reauthentication_required',
        'reauthenticated',
        'global_access_enabled',
        'global_access_disabled',
        'second_factor_added',
        'reauthentication_required',
        ['reauthentication_required', 'export'],
        ['second_factor_succeeded', 'reauthenticated'],
        'global_access_enabled',
        'global_access_disabled',
      ]);
      clock.mockImplementation(() => Date.now());
      await removeAll(owner);
    } finally {
      clock.mockRestore();
    }
  });
}
