import { describe, expect, it } from '@jest/globals';
import { SearchJournal } from './journal.contracts.js';
import { batchFolder, foldForSearch, holdsEveryTerm, matchRanges, SEARCH_QUERY_MAX, searchTerms } from './journal-search.js';
import { describeIssues } from './validation.js';

/** The parts of `text` that matchRanges marks. */
function marked(text: string, query: string): string[] {
  return matchRanges(text, searchTerms(query)).map(([start, end]) => text.slice(start, end));
}

describe('journal search text', () => {
  it('folds case, accents, compatibility forms and white space', () => {
    expect(foldForSearch('Café  CRÈME\n\tbrûlée')).toBe('cafe creme brulee');
    expect(foldForSearch('Straße')).toBe('strasse');
    expect(foldForSearch('ﬁnal ① ＡＢＣ')).toBe('final 1 abc');
    expect(foldForSearch('ΟΔΥΣΣΕΥΣ')).toBe(foldForSearch('οδυσσευς'));
    expect(foldForSearch('Ärger über Öl')).toBe('arger uber ol');
  });

  it('folds a batch of texts word by word exactly as foldForSearch folds each whole', () => {
    // Spacing accents fold to a space (¨ is a space and a diaeresis), a lone accent to nothing:
    // words whose fold is uneven; then the white space of every kind, at the edges too.
    const texts = [
      'Café  CRÈME\n\tbrûlée',
      'a¨b ¨ c',
      'x \u0301 y\u0301',
      '  leading and trailing  ',
      'nbsp\u00a0ideographic\u3000bom\ufeffend',
      'ΟΔΥΣΣΕΥΣ Straße ﬁnal ① ＡＢＣ',
      'emoji 🦊 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢, 東京の夜',
      '',
      '´',
    ];
    const fold = batchFolder();
    for (const text of [...texts, ...texts]) expect(fold(text)).toBe(foldForSearch(text));
    // One that forgets past two words gives the same folds.
    const forgetful = batchFolder(2);
    for (const text of texts) expect(forgetful(text)).toBe(foldForSearch(text));
  });

  it('reads words and quoted phrases, folded, each once', () => {
    expect(searchTerms('Dawn  operation "the Red  Door" dawn')).toEqual(['dawn', 'operation', 'the red door']);
    expect(searchTerms('“curly quotes” „low“')).toEqual(['curly quotes', 'low']);
    expect(searchTerms('"unclosed phrase')).toEqual(['unclosed phrase']);
    expect(searchTerms('  "" "   " ')).toEqual([]);
  });

  it('matches when every term is in the text, anywhere in a word', () => {
    const text = foldForSearch('Operation Dawnbreaker\nWe met at the Café near the red   door.');
    expect(holdsEveryTerm(text, searchTerms('dawn cafe'))).toBe(true);
    expect(holdsEveryTerm(text, searchTerms('"the red door"'))).toBe(true);
    expect(holdsEveryTerm(text, searchTerms('"red the door"'))).toBe(false);
    expect(holdsEveryTerm(text, searchTerms('dawn sunset'))).toBe(false);
    expect(holdsEveryTerm(foldForSearch('東京の夜は静か'), searchTerms('夜'))).toBe(true);
  });

  it('marks the matching parts of the original text, accents and all', () => {
    expect(marked('Le Café, le CAFE et le café.', 'cafe')).toEqual(['Café', 'CAFE', 'café']);
    expect(marked('Die Straße hier', 'strasse')).toEqual(['Straße']);
    expect(marked('Die Straße hier', 'stras')).toEqual(['Straß']);
    expect(marked('the red\n\n door', '"red door"')).toEqual(['red\n\n door']);
    expect(marked('abc abd', 'ab abc')).toEqual(['abc', 'ab']);
    expect(marked('emoji 🦸 hero', 'hero 🦸')).toEqual(['🦸', 'hero']);
    expect(marked('nothing here', 'absent')).toEqual([]);
  });

  it('refuses a query with nothing to look for, or too long, with the field named', () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'query: is required'],
      [{ query: 7 }, 'query: must be a string'],
      [{ query: '  ""  ' }, 'query: must contain a word to look for'],
      [{ query: 'x'.repeat(SEARCH_QUERY_MAX + 1) }, `query: must be at most ${SEARCH_QUERY_MAX} characters`],
      [{ query: 'a b c d e f g h i j k l m n o p q' }, 'query: must contain at most 16 words and phrases'],
      [{ query: 'dawn', limit: 0 }, 'limit: must be at least 1'],
      [{ query: 'dawn', offset: 1.5 }, 'offset: must be a whole number'],
      [{ query: 'dawn', limit: '5' }, 'limit: must be a number'],
    ];
    for (const [input, message] of cases) {
      const result = SearchJournal.request.safeParse(input);
      expect(result.success).toBe(false);
      expect(describeIssues(result.error!)).toBe(message);
    }
    expect(SearchJournal.request.parse({ query: 'dawn', limit: 20, offset: 40 })).toEqual({ query: 'dawn', limit: 20, offset: 40 });
  });
});
