import { describe, expect, it } from '@jest/globals';
import { decimalPlaces, describeIssues, SubtractBody } from '@vault/contracts';

/** What the balance takes (issue 13, finding 10): amounts to the cent, refused rather than rounded otherwise. */
describe('the amount to subtract', () => {
  it('counts decimal places as the amount is written', () => {
    const cases: Array<[number, number]> = [
      [1, 0],
      [0.5, 1],
      [0.29, 2],
      [999_999_999.99, 2],
      [1e-7, 7],
      [0.1 + 0.2, 17],
      [1e21, 0],
      [1.25e-5, 7],
    ];
    for (const [value, places] of cases) expect([value, decimalPlaces(value)]).toEqual([value, places]);
  });

  it('takes up to 2 decimal places and refuses more, naming why', () => {
    for (const amount of [0.01, 0.29, 1000, 999_999_999.99, 1e21]) expect([amount, SubtractBody.safeParse({ amount }).success]).toEqual([amount, true]);
    const refusals: Array<[unknown, string]> = [
      [1e-7, 'amount: must have at most 2 decimal places'],
      [0.001, 'amount: must have at most 2 decimal places'],
      [0.1 + 0.2, 'amount: must have at most 2 decimal places'],
      [-0.001, 'amount: must be above 0'],
      [0, 'amount: must be above 0'],
      ['1', 'amount: must be a number'],
    ];
    for (const [amount, message] of refusals) {
      const result = SubtractBody.safeParse({ amount });
      expect([amount, result.success ? 'accepted' : describeIssues(result.error)]).toEqual([amount, message]);
    }
  });
});
