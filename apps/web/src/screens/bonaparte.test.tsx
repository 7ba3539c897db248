// The balance screen's amount is kept to the cent (issue 13, finding 10): the
// form takes 2 decimal places and no more, as the server does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import BonaparteScreen from './bonaparte';
import { json, mockFetch, renderWithProviders, text } from '../test/utils';

afterEach(() => vi.restoreAllMocks());

describe('balance: amounts to the cent', () => {
  it('steps by 0.01', async () => {
    mockFetch({ 'GET /api/bonaparte/balance': () => json({ amount: 10 }) });
    renderWithProviders(<BonaparteScreen />);
    const input = (await screen.findByPlaceholderText('Enter amount')) as HTMLInputElement;
    expect(input.step).toBe('0.01');
  });

  it('sends 0.25 and does not send 0.001', async () => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({
      'GET /api/bonaparte/balance': () => json({ amount: 10 }),
      'POST /api/bonaparte/subtract': () => json({ amount: 9.75 }),
    });
    renderWithProviders(<BonaparteScreen />);
    const input = (await screen.findByPlaceholderText('Enter amount')) as HTMLInputElement;
    const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').map(([, init]) => JSON.parse(String(init!.body)));

    await user.type(input, '0.001');
    await user.click(screen.getByRole('button', { name: 'Subtract' }));
    expect(input.validity.stepMismatch).toBe(true);
    expect(posts()).toEqual([]);

    await user.clear(input);
    await user.type(input, '0.25');
    await user.click(screen.getByRole('button', { name: 'Subtract' }));
    await vi.waitFor(() => expect(posts()).toEqual([{ amount: 0.25 }]));
  });
});

// Issue 17: a refused subtraction says why, and 0 is never silently ignored.
describe('balance: feedback that tells the reason', () => {
  it("shows the server's reason under the spec's toast when the amount exceeds the balance", async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/bonaparte/balance': () => json({ amount: 1000 }),
      'POST /api/bonaparte/subtract': () => text('amount: must not exceed the balance (1,000)', 422, 'Unprocessable Entity'),
    });
    renderWithProviders(<BonaparteScreen />);
    await user.type(await screen.findByPlaceholderText('Enter amount'), '5000');
    await user.click(screen.getByRole('button', { name: 'Subtract' }));
    const toast = await screen.findByRole('status', { name: 'Notifications' });
    await vi.waitFor(() => expect(toast.textContent).toContain('Failed to update balance'));
    expect(screen.getByText('Error')).toBeTruthy();
    expect(screen.getByText('Failed to update balance')).toBeTruthy();
    expect(screen.getByText('amount: must not exceed the balance (1,000)')).toBeTruthy();
  });

  it.each(['0', '0.00'])('says why %s is not sent instead of ignoring it silently', async (typed) => {
    const user = userEvent.setup();
    const fetchMock = mockFetch({ 'GET /api/bonaparte/balance': () => json({ amount: 10 }) });
    renderWithProviders(<BonaparteScreen />);
    const input = await screen.findByPlaceholderText('Enter amount');
    await user.type(input, typed);
    await user.click(screen.getByRole('button', { name: 'Subtract' }));
    const message = screen.getByRole('alert');
    expect(message.textContent).toBe('Enter an amount above 0.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(message.id);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    // Typing again clears the message.
    await user.clear(input);
    await user.type(input, '1');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });
});
