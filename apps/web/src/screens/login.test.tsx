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

describe('LoginScreen', () => {
  it('renders the security texts and a fixed, disabled username', () => {
    renderWithProviders(<LoginScreen owner={owner} />);
    const username = screen.getByLabelText('Username') as HTMLInputElement;
    expect(username.value).toBe('bruce');
    expect(username.disabled).toBe(true);
    expect(username.readOnly).toBe(true);
    expect(screen.getByText('Session auto-expires in half an hour')).toBeTruthy();
    expect(screen.getByText('All access attempts are logged')).toBeTruthy();
    expect(screen.getByText('Access restricted to authorized user only')).toBeTruthy();
  });

  it('toggles password visibility', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LoginScreen owner={owner} />);
    const password = screen.getByPlaceholderText('Enter password') as HTMLInputElement;
    expect(password.type).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.type).toBe('text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.type).toBe('password');
  });

  it('ignores a blank password', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    renderWithProviders(<LoginScreen owner={owner} />);
    await user.type(screen.getByPlaceholderText('Enter password'), '   ');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('ignores submission when the username is unknown', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    renderWithProviders(<LoginScreen owner={null} />);
    expect(screen.getByRole('heading', { name: 'VAULT' })).toBeTruthy();
    await user.type(screen.getByPlaceholderText('Enter password'), 'secret');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('after an expired session, signs in back to the screen the owner was on', async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    sessionStorage.setItem('vault.returnTo', '/journal');
    mockFetch({ 'POST /api/login': () => json(owner) });
    renderWithProviders(<LoginScreen owner={owner} />);
    await user.type(screen.getByPlaceholderText('Enter password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/journal'));
    expect(sessionStorage.getItem('vault.returnTo')).toBeNull();
  });

  it('posts the credentials, shows AUTHENTICATING... and redirects the whole page to /', async () => {
    const user = userEvent.setup();
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    let release: (r: Response) => void = () => {};
    const fetchMock = mockFetch({
      'POST /api/login': () => new Promise<Response>((resolve) => (release = resolve)),
    });
    renderWithProviders(<LoginScreen owner={owner} />);
    await user.type(screen.getByPlaceholderText('Enter password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));

    const button = await screen.findByRole('button', { name: /AUTHENTICATING\.\.\./ });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toEqual({
      username: 'bruce',
      password: 'correct horse',
    });

    release(json(owner));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
  });

  it('shows the login error toast', async () => {
    const user = userEvent.setup();
    mockFetch({ 'POST /api/login': () => text('Invalid credentials', 401, 'Unauthorized') });
    renderWithProviders(<LoginScreen owner={owner} />);
    await user.type(screen.getByPlaceholderText('Enter password'), 'wrong');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));

    expect(await screen.findByText('Access Denied')).toBeTruthy();
    expect(screen.getByText('Invalid credentials. Access restricted to authorized user only.')).toBeTruthy();
    expect(screen.getByRole('button', { name: /SECURE ACCESS/ })).toBeTruthy();
  });

  it.each([
    ['Account locked. Try again in 15 minutes.', 423, 'Account Locked', 'Account temporarily locked for security. Try again later.'],
    ['Rate limit exceeded. Try again later.', 429, 'Too Many Attempts', 'Please wait 15 minutes before trying again.'],
    ['username: must not be blank', 400, 'Authentication Failed', 'Invalid username or password'],
  ])('maps the answer "%s" to its toast', async (body, status, title, description) => {
    const user = userEvent.setup();
    mockFetch({ 'POST /api/login': () => text(body, status) });
    renderWithProviders(<LoginScreen owner={owner} />);
    await user.type(screen.getByPlaceholderText('Enter password'), 'secret');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));
    expect(await screen.findByText(title)).toBeTruthy();
    expect(screen.getByText(description)).toBeTruthy();
  });
});

// Issue 17: a blank sign-in says which field is missing; a refused one empties the password.
describe('LoginScreen: feedback', () => {
  it('says the password is missing, focuses it, and still sends nothing', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    renderWithProviders(<LoginScreen owner={owner} />);
    const password = screen.getByPlaceholderText('Enter password');
    await user.type(password, '   ');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));
    const message = screen.getByRole('alert');
    expect(message.textContent).toBe('Enter the password.');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-describedby')).toContain(message.id);
    expect(document.activeElement).toBe(password);
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(password, 'x');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says the username is missing when the owner could not be loaded', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({});
    renderWithProviders(<LoginScreen owner={null} />);
    await user.type(screen.getByPlaceholderText('Enter password'), 'secret');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));
    expect(screen.getByRole('alert').textContent).toBe('The username is missing: the vault could not load its owner. Reload the page.');
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('empties and focuses the password after a refused sign-in', async () => {
    const user = userEvent.setup();
    mockFetch({ 'POST /api/login': () => text('Invalid credentials', 401, 'Unauthorized') });
    renderWithProviders(<LoginScreen owner={owner} />);
    const password = screen.getByPlaceholderText('Enter password') as HTMLInputElement;
    await user.type(password, 'wrong');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    await waitFor(() => expect(password.value).toBe(''));
    expect(document.activeElement).toBe(password);
  });

  it("adds the server's reason to the catch-all toast", async () => {
    const user = userEvent.setup();
    mockFetch({ 'POST /api/login': () => text('The session store is unavailable. Try again shortly.', 503) });
    renderWithProviders(<LoginScreen owner={owner} />);
    await user.type(screen.getByPlaceholderText('Enter password'), 'secret');
    await user.click(screen.getByRole('button', { name: /SECURE ACCESS/ }));
    expect(await screen.findByText('Authentication Failed')).toBeTruthy();
    expect(screen.getByText('Invalid username or password')).toBeTruthy();
    expect(screen.getByText('The session store is unavailable. Try again shortly.')).toBeTruthy();
  });
});
