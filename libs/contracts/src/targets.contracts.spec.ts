import { describe, expect, it } from '@jest/globals';
import { CreateTarget, UpdateTarget } from './targets.contracts.js';
import { describeIssues } from './validation.js';

describe('target contracts', () => {
  it('trims the title and omits a blank description', () => {
    expect(CreateTarget.request.parse({ title: '  Scout ', description: '   ' })).toEqual({ title: 'Scout' });
    expect(CreateTarget.request.parse({ title: 'Scout', description: ' notes ' })).toEqual({ title: 'Scout', description: 'notes' });
  });

  it('words each refusal with the field it concerns', () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'title: is required'],
      [{ title: '   ' }, 'title: must not be empty'],
      [{ title: 7 }, 'title: must be a string'],
      [{ title: 'x'.repeat(201) }, 'title: must be at most 200 characters'],
      [{ title: 'ok', description: 'x'.repeat(2001) }, 'description: must be at most 2000 characters'],
    ];
    for (const [input, message] of cases) {
      const result = CreateTarget.request.safeParse(input);
      expect(result.success).toBe(false);
      expect(describeIssues(result.error!)).toBe(message);
    }
  });

  it('accepts only a boolean completion and a well-formed id', () => {
    const id = '6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11';
    expect(UpdateTarget.request.parse({ id, completed: true })).toEqual({ id, completed: true });
    const bad = UpdateTarget.request.safeParse({ id: 'nope', completed: 'yes' });
    expect(describeIssues(bad.error!)).toBe('completed: must be true or false; id: must be a valid id');
  });
});
