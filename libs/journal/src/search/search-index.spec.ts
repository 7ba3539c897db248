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
