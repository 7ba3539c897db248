import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoginScreen } from './login';
import { navigation } from '../lib/navigation';
import { json, mockFetch, renderWithProviders, text } from '../test/utils';

const owner = { name: 'Bruce', username: 'bruce' };

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('LoginScreen with a second factor', () => {
  it('asks for a code after the password, and signs in only when the code is accepted', async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    const codes: string[] = [];
    mockFetch({
      'POST /api/login': () => json({ secondFactor: ['totp', 'recovery'] }, 202),
      'POST /api/login/second-factor': (init) => {
        const { code } = JSON.parse(String(init!.body)) as { code: string };
        codes.push(code);
        return code === '123456' ? json(owner) : text('Invalid code', 401, 'Unauthorized');
      },
    });
    renderWithProviders(<LoginScreen owner={owner} />);
    await user.type(screen.getByPlaceholderText('Enter password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));

    expect(await screen.findByRole('heading', { name: 'SECOND FACTOR REQUIRED' })).toBeTruthy();
    // Only the code's ways are offered: no passkey enrolled.
    expect(screen.queryByRole('button', { name: /USE PASSKEY/ })).toBeNull();
    await user.type(screen.getByLabelText('Authenticator or recovery code'), '654321');
    await user.click(screen.getByRole('button', { name: /VERIFY/ }));
    expect(await screen.findByText('Invalid code')).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Authenticator or recovery code'), '123456');
    await user.click(screen.getByRole('button', { name: /VERIFY/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(codes).toEqual(['654321', '123456']);
  });

  it('offers SIGN IN WITH PASSKEY only when the owner allowed a passkey alone', () => {
    const { unmount } = renderWithProviders(<LoginScreen owner={owner} />);
    expect(screen.queryByRole('button', { name: /SIGN IN WITH PASSKEY/ })).toBeNull();
    unmount();
    renderWithProviders(<LoginScreen owner={{ ...owner, passkeySignIn: true }} />);
    expect(screen.getByRole('button', { name: /SIGN IN WITH PASSKEY/ })).toBeTruthy();
  });
});
