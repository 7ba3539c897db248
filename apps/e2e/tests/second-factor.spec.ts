// Issue 19: a second factor. Passkeys with Chromium's virtual authenticator
// (CDP WebAuthn.enable / addVirtualAuthenticator), and an authenticator app
// whose codes the test computes from the secret the page shows, each on a
// vault of its own per mode, reached as http://localhost (a WebAuthn relying
// party is a host name, never an IP address).
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, vaultTitle } from '../support/fixtures.ts';
import type { OwnerAccount } from '../support/modes.ts';
import { withPrivateVault } from '../support/private-vault.ts';

const OWNER: OwnerAccount = { name: 'Hal Jordan', username: 'hal', password: 'Green-Lantern-e2e-2%' };
const test = withPrivateVault(OWNER, { embedded: 3331, distributed: 3332 });

/** A platform authenticator that holds discoverable credentials, verifies its user and is always touched. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
}

async function enterPassword(page: Page, origin: string) {
  await page.goto(`${origin}/`);
  await expect(page.getByRole('heading', { level: 1, name: vaultTitle(OWNER) })).toBeVisible();
  await page.getByPlaceholder('Enter password').fill(OWNER.password);
  await page.getByRole('button', { name: 'SECURE ACCESS' }).click();
}

async function expectSignedIn(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'COMMAND CENTER' })).toBeVisible();
}

async function signOut(page: Page, origin: string) {
  await page.goto(`${origin}/api/logout`);
  await expect(page.getByRole('button', { name: 'SECURE ACCESS' })).toBeVisible();
}

async function openSecondFactor(page: Page) {
  await page.getByRole('button', { name: 'SETTINGS' }).click();
  const settings = page.getByRole('dialog', { name: 'VAULT SETTINGS' });
  await settings.getByText('SECOND FACTOR', { exact: true }).click();
  return settings;
}

/**
 * The access log's latest actions, oldest first, once `expected` is there. The
 * events of one request (the factor's check and the sign-in it completes) may
 * share a millisecond, so such a pair is written as an array and compared sorted.
 */
async function expectLatestActions(page: Page, origin: string, expected: Array<string | string[]>) {
  const sorted = expected.map((item) => (Array.isArray(item) ? [...item].sort() : item));
  await expect
    .poll(async () => {
      const rows = (await (await page.request.get(`${origin}/api/logs`)).json()) as Array<{ action: string }>;
      const latest = rows
        .slice(0, expected.flat().length)
        .map((row) => row.action)
        .reverse();
      let at = 0;
      return expected.map((item) => {
        const size = Array.isArray(item) ? item.length : 1;
        const taken = latest.slice(at, at + size);
        at += size;
        return Array.isArray(item) ? taken.sort() : taken[0];
      });
    })
    .toEqual(sorted);
}

test.describe('second factor', () => {
  test('an authenticator app: the QR code and secret shown, confirmed by a code, then asked for at sign-in', async ({ page, privateVault }) => {
    test.setTimeout(120_000);
    const origin = privateVault.baseURL.replace('127.0.0.1', 'localhost');
    await enterPassword(page, origin);
    await expectSignedIn(page);

    const settings = await openSecondFactor(page);
    await settings.getByRole('button', { name: 'ADD AUTHENTICATOR APP' }).click();
    await expect(settings.getByRole('img', { name: 'QR code for the authenticator app' })).toBeVisible();
    const secret = (await settings.getByLabel('Authenticator secret').innerText()).trim();
    const code = (at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
    await settings.getByLabel('Code from the app').fill(code(Date.now()));
    await settings.getByRole('button', { name: 'CONFIRM APP' }).click();
    await expect(settings.getByRole('region', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await settings.getByRole('button', { name: 'I HAVE SAVED THEM' }).click();
    await expect(settings.getByText('On: 1 factor, 10 recovery codes left.')).toBeVisible();

    await signOut(page, origin);
    await enterPassword(page, origin);
    await expect(page.getByRole('heading', { name: 'SECOND FACTOR REQUIRED' })).toBeVisible();
    // The next step's code: the confirmation used this one's, and a code is taken once.
    await page.getByLabel('Authenticator or recovery code').fill(code(Date.now() + 30_000));
    await page.getByRole('button', { name: 'VERIFY' }).click();
    await expectSignedIn(page);

    // The last factor goes only with the password; then the password alone signs in again.
    const again = await openSecondFactor(page);
    await again.getByRole('button', { name: 'Remove Authenticator app' }).click();
    await again.getByLabel('Owner password (removes the last factor)').fill(OWNER.password);
    await again.getByRole('button', { name: 'REMOVE LAST FACTOR' }).click();
    await expect(again.getByText('Off: the password alone opens the vault.')).toBeVisible();
    await signOut(page, origin);
    await enterPassword(page, origin);
    await expectSignedIn(page);
  });

  test('a passkey: enrolled in the settings, then password + passkey, then the passkey alone once allowed', async ({ page, privateVault }) => {
    test.setTimeout(120_000);
    const origin = privateVault.baseURL.replace('127.0.0.1', 'localhost');
    const credentials = await addVirtualAuthenticator(page);

    // No factor yet: today's login screen, no passkey button.
    await enterPassword(page, origin);
    await expectSignedIn(page);
    const settings = await openSecondFactor(page);
    await expect(settings.getByText('Off: the password alone opens the vault.')).toBeVisible();
    await settings.getByRole('button', { name: 'ADD PASSKEY' }).click();
    const codes = settings.getByRole('region', { name: 'Recovery codes' });
    await expect(codes.getByRole('listitem')).toHaveCount(10);
    await codes.getByRole('button', { name: 'I HAVE SAVED THEM' }).click();
    await expect(settings.getByText('On: 1 factor, 10 recovery codes left.')).toBeVisible();
    expect(await credentials()).toHaveLength(1);

    await signOut(page, origin);
    await expect(page.getByRole('button', { name: 'SIGN IN WITH PASSKEY' })).toHaveCount(0);
    await enterPassword(page, origin);
    await expect(page.getByRole('heading', { name: 'SECOND FACTOR REQUIRED' })).toBeVisible();
    await page.getByRole('button', { name: 'USE PASSKEY' }).click();
    await expectSignedIn(page);

    const again = await openSecondFactor(page);
    // A controlled switch: it shows the server's answer once it came.
    await again.getByLabel('Sign in with a passkey alone').click();
    await expect(again.getByLabel('Sign in with a passkey alone')).toBeChecked();
    await signOut(page, origin);
    await page.getByRole('button', { name: 'SIGN IN WITH PASSKEY' }).click();
    await expectSignedIn(page);

    await expectLatestActions(page, origin, [
      'login_success',
      'second_factor_added',
      'logout',
      'password_accepted',
      ['second_factor_succeeded', 'login_success'],
      'logout',
      ['second_factor_succeeded', 'login_success'],
    ]);
  });
});
