import { describe, expect, it } from 'vitest';
import { changesEntry, journalEntryBody, wasUpdated } from './journal';
import { newTargetBody } from './targets';
import { todayUtcDate, todayUtcWeekday } from './schedule';

describe('journalEntryBody', () => {
  it('needs content; sends it as typed; trims the title and leaves it out when empty', () => {
    expect(journalEntryBody('   ')).toBeNull();
    expect(journalEntryBody('  Line one\nLine two  ', '   ')).toEqual({ content: '  Line one\nLine two  ' });
    expect(journalEntryBody('Report', '  Op Nightfall ')).toEqual({ title: 'Op Nightfall', content: 'Report' });
  });
});

describe('wasUpdated', () => {
  it('is true only when updated after creation', () => {
    expect(wasUpdated({ createdAt: '2025-01-01T10:00:00Z', updatedAt: '2025-01-01T10:00:00Z' })).toBe(false);
    // @ts-expect-error the contract always sends updatedAt; a missing one still means "not updated"
    expect(wasUpdated({ createdAt: '2025-01-01T10:00:00Z', updatedAt: null })).toBe(false);
    expect(wasUpdated({ createdAt: '2025-01-01T10:00:00Z', updatedAt: '2025-01-02T10:00:00Z' })).toBe(true);
  });
});

describe('newTargetBody', () => {
  it('needs a title; trims both fields and leaves out an empty description', () => {
    expect(newTargetBody('  ')).toBeNull();
    expect(newTargetBody(' Stop Bane ', '  ')).toEqual({ title: 'Stop Bane' });
    expect(newTargetBody('Stop Bane', ' At dawn ')).toEqual({ title: 'Stop Bane', description: 'At dawn' });
  });
});

describe('today', () => {
  it('is the UTC date and its weekday', () => {
    const lateEvening = new Date('2025-03-02T23:30:00Z'); // a Sunday in UTC
    expect(todayUtcDate(lateEvening)).toBe('2025-03-02');
    expect(todayUtcWeekday(lateEvening)).toBe(0);
  });
});

describe('changesEntry', () => {
  const shown = { title: 'Alpha', content: 'Line one\nLine two' };

  it('is false for the entry as shown, whatever spaces surround the title', () => {
    expect(changesEntry(shown, journalEntryBody('Line one\nLine two', '  Alpha ')!)).toBe(false);
    // @ts-expect-error the contract leaves an untitled entry's title out; a null one still reads as none
    expect(changesEntry({ title: null, content: 'x' }, journalEntryBody('x', '   ')!)).toBe(false);
  });

  it('is true for a new title, a removed title or any change of the content', () => {
    expect(changesEntry(shown, journalEntryBody('Line one\nLine two', 'Bravo')!)).toBe(true);
    expect(changesEntry(shown, journalEntryBody('Line one\nLine two', '')!)).toBe(true);
    expect(changesEntry(shown, journalEntryBody('Line one\nLine two ', 'Alpha')!)).toBe(true);
  });
});
