import { describe, expect, it } from '@jest/globals';
import { exactDecimal } from './exact-decimal.js';

describe('exactDecimal', () => {
  it('writes an amount as the decimal it was sent as', () => {
    const cases: Array<[number, string]> = [
      [0.29, '0.29'],
      [0.01, '0.01'],
      [1, '1'],
      [123.45, '123.45'],
      [999_999_999.99, '999999999.99'],
      [1e21, '1000000000000000000000'],
      [1.5e22, '15000000000000000000000'],
      [1.5e-7, '0.00000015'],
    ];
    for (const [amount, text] of cases) expect([amount, exactDecimal(amount)]).toEqual([amount, text]);
  });

  it('refuses what is not an amount', () => {
    for (const amount of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => exactDecimal(amount)).toThrow(RangeError);
  });
});
