import { describe, expect, it } from '@jest/globals';
import { searchTerms } from '@vault/contracts';
import { SearchIndex } from './search-index.js';

const at = (day: number) => new Date(Date.UTC(2026, 0, day));

describe('SearchIndex', () => {
  function filled(): SearchIndex {
    const index = new SearchIndex();
    index.put({ id: 'a', createdAt: at(1), title: 'Dawn patrol', content: 'Quiet streets.' });
    index.put({ id: 'b', createdAt: at(3), content: 'The red door at dawn' });
    index.put({ id: 'c', createdAt: at(2), title: 'Red', content: 'door ajar, dawn again' });
    return index;
  }

  it('finds the entries holding every term, newest first, a page at a time', () => {
    const index = filled();
    expect(index.match(searchTerms('dawn'), 0, 50)).toEqual(['b', 'c', 'a']);
    expect(index.match(searchTerms('dawn'), 1, 1)).toEqual(['c']);
    expect(index.match(searchTerms('dawn red'), 0, 50)).toEqual(['b', 'c']);
    expect(index.match(searchTerms('"red door"'), 0, 50)).toEqual(['b']);
  });

  it('never matches a phrase across the title and the content', () => {
    expect(filled().match(searchTerms('"red door"'), 0, 50)).not.toContain('c');
  });

  it('finds words of every script, whatever bytes their characters share', () => {
    const index = new SearchIndex();
    index.put({ id: 'greek', createdAt: at(1), title: 'Θάλασσα', content: 'η νύχτα' });
    index.put({ id: 'japanese', createdAt: at(2), content: '東京の夜、雨' });
    index.put({ id: 'german', createdAt: at(3), content: 'Die Straße am Fluss' });
    expect(index.match(searchTerms('θαλασσα'), 0, 50)).toEqual(['greek']);
    expect(index.match(searchTerms('νυχτα'), 0, 50)).toEqual(['greek']);
    expect(index.match(searchTerms('京'), 0, 50)).toEqual(['japanese']);
    expect(index.match(searchTerms('STRASSE am'), 0, 50)).toEqual(['german']);
    // 亰 and 京 differ in their last byte only.
    expect(index.match(searchTerms('亰'), 0, 50)).toEqual([]);
    expect(index.match(searchTerms('νυχτες'), 0, 50)).toEqual([]);
  });

  it('orders entries of the same time by id, as the list does', () => {
    const index = new SearchIndex();
    index.put({ id: '1', createdAt: at(1), content: 'same' });
    index.put({ id: '2', createdAt: at(1), content: 'same' });
    expect(index.match(searchTerms('same'), 0, 50)).toEqual(['2', '1']);
  });

  it('follows edits and removals, and a copy leaves the original as it was', () => {
    const index = filled();
    const copy = index.copy();
    copy.put({ id: 'a', createdAt: at(1), content: 'sunset now' });
    copy.remove('b');
    expect(copy.match(searchTerms('dawn'), 0, 50)).toEqual(['c']);
    expect(copy.match(searchTerms('sunset'), 0, 50)).toEqual(['a']);
    expect(copy.size).toBe(2);
    expect(index.match(searchTerms('dawn'), 0, 50)).toEqual(['b', 'c', 'a']);
    expect(index.size).toBe(3);
  });
});
