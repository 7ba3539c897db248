import { z } from 'zod';
import { Empty } from './fields.js';
import { defineRpc } from './rpc.js';

/** Where every vault's balance starts. */
export const INITIAL_BALANCE = 1_000_000_000;

export const Balance = z.object({ amount: z.number() });
export type Balance = z.infer<typeof Balance>;

export const SubtractBody = z.object({
  amount: z
    .number({ error: 'must be a number' })
    .refine(Number.isFinite, 'must be a finite number')
    .refine((value) => value > 0, 'must be above 0'),
});
export type SubtractBody = z.input<typeof SubtractBody>;

export const GetBalance = defineRpc({ pattern: 'planner.balance.get', request: Empty, response: Balance });
export const SubtractFromBalance = defineRpc({ pattern: 'planner.balance.subtract', request: SubtractBody, response: Balance });
