import { z } from 'zod';
import { Empty } from './fields.js';
import { defineRpc } from './rpc.js';

/** The balance is kept to the cent (numeric(12, 2)): an amount with more decimal places cannot be subtracted exactly. */
export const BALANCE_DECIMAL_PLACES = 2;

/**
 * How many decimal places a number has, read from its shortest decimal form,
 * the one JSON and String() write (0.29 → 2, 1e-7 → 7, 0.1 + 0.2 → 17). A
 * browser's amount arrives as JSON text parsed to a number, and that form is
 * the text it was parsed from, whatever binary value carries it.
 */
export function decimalPlaces(value: number): number {
  const [mantissa, exponent = '0'] = String(value).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

/** The balance: a number (spec section 3), exact to the cent. */
export const Balance = z.object({ amount: z.number() });
export type Balance = z.infer<typeof Balance>;

export const SubtractBody = z.object({
  amount: z
    .number({ error: 'must be a number' })
    .refine(Number.isFinite, 'must be a finite number')
    .refine((value) => value > 0, 'must be above 0')
    // Refused rather than rounded: the owner sees exactly what was taken.
    .refine(
      (value) => !(Number.isFinite(value) && value > 0) || decimalPlaces(value) <= BALANCE_DECIMAL_PLACES,
      `must have at most ${BALANCE_DECIMAL_PLACES} decimal places`,
    ),
});
export type SubtractBody = z.input<typeof SubtractBody>;

export const GetBalance = defineRpc({ pattern: 'planner.balance.get', request: Empty, response: Balance });
export const SubtractFromBalance = defineRpc({ pattern: 'planner.balance.subtract', request: SubtractBody, response: Balance });
