import { describe, expect, it } from 'vitest';
import { DEFAULT_BALANCE, displayedBalance, formatBalance, parseAmount } from './balance';

describe('balance display', () => {
  it('defaults to 1,000,000,000 when the server returns none', () => {
    expect(DEFAULT_BALANCE).toBe(1_000_000_000);
    expect(formatBalance(displayedBalance(null))).toBe('1,000,000,000');
    expect(formatBalance(displayedBalance(undefined))).toBe('1,000,000,000');
    expect(formatBalance(displayedBalance({} as { amount: number }))).toBe('1,000,000,000');
  });

  it("shows the server's amount with thousands separators", () => {
    expect(formatBalance(displayedBalance({ amount: 999_987_654.5 }))).toBe('999,987,654.5');
    expect(formatBalance(displayedBalance({ amount: 0 }))).toBe('0');
  });
});

describe('parseAmount', () => {
  it('takes numbers above 0', () => {
    expect(parseAmount('250')).toBe(250);
    expect(parseAmount('0.5')).toBe(0.5);
  });

  it('ignores empty, zero, negative and non-numbers', () => {
    for (const input of ['', '  ', '0', '-5', 'abc', 'Infinity']) expect(parseAmount(input)).toBeNull();
  });
});
