import { describe, expect, it } from '@jest/globals';
import { ARCHIVE_PAGE_BYTES, JournalRecord, fitPage } from './archive.contracts.js';

const record = (id: number, size: number) => ({ id: String(id).padStart(3, '0'), text: 'x'.repeat(size) });

describe('archive pages', () => {
  it('cuts a page where its JSON would pass the message budget, and names where the next one starts', () => {
    const rows = Array.from({ length: 10 }, (_, i) => record(i, ARCHIVE_PAGE_BYTES / 4));
    const page = fitPage(rows, true);
    expect(page.records.map((r) => r.id)).toEqual(['000', '001', '002']);
    expect(page.next).toBe('002');
  });

  it('always takes one record, even one over the budget, and ends when everything was read', () => {
    expect(fitPage([record(1, ARCHIVE_PAGE_BYTES * 2)], true)).toEqual({ records: [record(1, ARCHIVE_PAGE_BYTES * 2)] });
    expect(fitPage([record(1, 10), record(2, 10)], true)).toEqual({ records: [record(1, 10), record(2, 10)] });
    expect(fitPage([record(1, 10), record(2, 10)], false).next).toBe('002');
    expect(fitPage([], false)).toEqual({ records: [] });
  });

  it('refuses a journal record that the API itself would refuse', () => {
    const valid = {
      id: '0b9f3c1e-7d1a-4c55-9a43-1d2e3f4a5b6c',
      title: null,
      content: 'x',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(JournalRecord.safeParse(valid).success).toBe(true);
    expect(JournalRecord.safeParse({ ...valid, content: '   ' }).success).toBe(false);
    expect(JournalRecord.safeParse({ ...valid, extra: 1 }).success).toBe(false);
    expect(JournalRecord.safeParse({ ...valid, createdAt: 'yesterday' }).success).toBe(false);
  });
});
