import { describe, expect, it } from '@jest/globals';
import { errorWithCauses } from './error-with-causes.js';

describe('errorWithCauses', () => {
  it('gives the stack, then each wrapped cause, so a failed query says why it failed', () => {
    const timeout = new Error('timeout exceeded when trying to connect');
    const query = new Error('Failed query: select 1', { cause: timeout });
    const text = errorWithCauses(query);
    expect(text.startsWith('Error: Failed query: select 1\n    at ')).toBe(true);
    expect(text.endsWith('\n  caused by: Error: timeout exceeded when trying to connect')).toBe(true);
  });

  it('stops three causes deep, and takes what is not an Error as it is', () => {
    let error: unknown = 'the root';
    for (let n = 5; n > 0; n--) error = new Error(`level ${n}`, { cause: error });
    expect(errorWithCauses(error).split('caused by: ').slice(1)).toEqual(['Error: level 2\n  ', 'Error: level 3\n  ', 'Error: level 4']);
    expect(errorWithCauses('plain')).toBe('plain');
  });
});
