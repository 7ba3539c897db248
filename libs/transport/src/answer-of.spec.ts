import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { answerOf } from './answer-of.js';

const Answer = z.object({
  id: z.string(),
  description: z.string().optional(),
  completedAt: z.string().nullable(),
  count: z.number(),
});

describe('answerOf', () => {
  it('keeps the schema fields only, times as ISO text, a null where the field may be null', () => {
    const row = { id: 'a', description: 'd', completedAt: new Date('2026-11-27T06:00:00Z'), count: 0, secret: 'never answered' };
    expect(answerOf(Answer, row)).toEqual({ id: 'a', description: 'd', completedAt: '2026-11-27T06:00:00.000Z', count: 0 });
    expect(answerOf(Answer, { ...row, completedAt: null })).toMatchObject({ completedAt: null });
  });

  it('leaves out a null where the field may be absent but not null', () => {
    expect(answerOf(Answer, { id: 'a', description: null, completedAt: null, count: 1 })).toEqual({ id: 'a', completedAt: null, count: 1 });
  });

  it('gives what the schema accepts', () => {
    const answer = answerOf(Answer, { id: 'a', description: null, completedAt: new Date(0), count: 2 });
    expect(Answer.safeParse(answer).success).toBe(true);
  });
});
