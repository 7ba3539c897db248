import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SettingsMenu } from './settings-panel';
import { json, mockFetch, renderWithProviders, text } from '../test/utils';

const REQUIRED = 'Re-authentication required: the last sign-in was more than 5 minutes ago. Enter your password (and your second factor) again.';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('re-authentication before a drastic action', () => {
  it('asks for the password only when the gateway refuses for an old sign-in, then runs the action again', async () => {
    const user = userEvent.setup();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    let reauthenticated = false;
    const calls: string[] = [];
    mockFetch({
      'POST /api/settings/global-access': () => {
        calls.push('activate');
        return reauthenticated ? json({ globalAccess: true }) : text(REQUIRED, 403, 'Forbidden');
      },
      'GET /api/second-factor': () => json({ factors: [], recoveryCodesLeft: 0, passkeySignIn: false }),
      'POST /api/reauthenticate': (init) => {
        const { password } = JSON.parse(String(init!.body)) as { password: string };
        calls.push(`reauthenticate ${password}`);
        reauthenticated = password === 'correct horse';
        return reauthenticated ? json({ reauthenticated: true }) : text('password: is not the owner password', 403, 'Forbidden');
      },
      'GET /api/user': () => json({ username: 'bruce', name: 'Bruce', globalAccess: true, signedIn: true }),
    });
    renderWithProviders(<SettingsMenu globalAccess={false} />);
    await user.click(screen.getByRole('button', { name: 'SETTINGS' }));
    await user.click(within(screen.getByRole('dialog', { name: 'VAULT SETTINGS' })).getByRole('button', { name: 'ACTIVATE' }));

    const prompt = await screen.findByRole('dialog', { name: "CONFIRM IT'S YOU" });
    // No second factor enrolled: the password alone.
    expect(within(prompt).queryByLabelText('Authenticator or recovery code')).toBeNull();
    await user.type(within(prompt).getByLabelText('Owner password'), 'wrong guess');
    await user.click(within(prompt).getByRole('button', { name: 'CONFIRM' }));
    expect(await within(prompt).findByText('password: is not the owner password')).toBeTruthy();
    await user.clear(within(prompt).getByLabelText('Owner password'));
    await user.type(within(prompt).getByLabelText('Owner password'), 'correct horse');
    await user.click(within(prompt).getByRole('button', { name: 'CONFIRM' }));

    await waitFor(() => expect(calls).toEqual(['activate', 'reauthenticate wrong guess', 'reauthenticate correct horse', 'activate']));
    expect(await screen.findByText('To The Moon Activated')).toBeTruthy();
    // The panel stayed open under the prompt.
    expect(screen.getByRole('dialog', { name: 'VAULT SETTINGS' })).toBeTruthy();
  });
});
