// The balance screen's amount is kept to the cent (issue 13, finding 10): the
// form takes 2 decimal places and no more, as the server does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import BonaparteScreen from './bonaparte';
import { json, mockFetch, renderWithProviders } from '../test/utils';

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
