import { describe, expect, it } from '@jest/globals';
import { isOutage } from './outage.js';

/** A query error as drizzle throws it: the query's text, the driver's error as its cause. */
const failedQuery = (cause: unknown) => new Error('Failed query: select "id" from "planner"."targets"', { cause });
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isOutage', () => {
  it.each([
    ['a server out of connections', withCode('sorry, too many clients already', '53300')],
    ['a role at its connection limit', withCode('too many connections for role "vault_planner"', '53300')],
    ['a server shutting down', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting', withCode('the database system is starting up', '57P03')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['a pool that waited too long for a connection', new Error('timeout exceeded when trying to connect')],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
  ])('is %s, also as the cause of a query error', (_, error) => {
    expect(isOutage(error)).toBe(true);
    expect(isOutage(failedQuery(error))).toBe(true);
    expect(isOutage(failedQuery(failedQuery(error)))).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', withCode('syntax error at or near "form"', '42601')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a message that only mentions a timeout', new Error('the export timed out: timeout exceeded when trying to connect')],
    ['no error at all', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('is not %s', (_, error) => {
    expect(isOutage(error)).toBe(false);
    expect(isOutage(failedQuery(error))).toBe(false);
  });

  it('stops at a cause that refers to itself', () => {
    const looping = new Error('looping');
    (looping as { cause?: unknown }).cause = looping;
    expect(isOutage(looping)).toBe(false);
  });
});
