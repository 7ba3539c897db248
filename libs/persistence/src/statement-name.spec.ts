import { describe, expect, it } from '@jest/globals';
import { pgSchema, pgTable, text } from 'drizzle-orm/pg-core';
import { statementName } from './statement-name.js';

describe('statementName', () => {
  it("names a statement after its table's schema and table, so that two services' tables of one name differ", () => {
    const planner = pgSchema('planner').table('notes', { id: text('id') });
    const journal = pgSchema('journal').table('notes', { id: text('id') });
    expect([statementName(planner, 'list'), statementName(journal, 'list')]).toEqual(['planner.notes.list', 'journal.notes.list']);
  });

  it('gives a table of no schema the one PostgreSQL finds it in', () => {
    expect(statementName(pgTable('notes', { id: text('id') }), 'insert')).toBe('public.notes.insert');
  });
});
