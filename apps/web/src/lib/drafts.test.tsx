import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { discardAllDrafts, hasDraft, readDraft, useDraft } from './drafts';
import { isReturnable, rememberScreen, takeReturnPath } from './return-path';

describe('drafts', () => {
  it('keeps what is typed, restores it in a new form, and forgets it when discarded', () => {
    const first = renderHook(() => useDraft('journal.new', { title: '', content: '' }));
    act(() => first.result.current[1]((d) => ({ ...d, content: 'half a thought' })));
    expect(hasDraft('journal.new')).toBe(true);
    first.unmount();

    const second = renderHook(() => useDraft('journal.new', { title: '', content: '' }));
    expect(second.result.current[0]).toEqual({ title: '', content: 'half a thought' });
    act(() => second.result.current[2]());
    expect(second.result.current[0]).toEqual({ title: '', content: '' });
    expect(hasDraft('journal.new')).toBe(false);
  });

  it('keeps nothing for a form back at its empty (or saved) value', () => {
    const { result } = renderHook(() => useDraft('edit', 'as saved'));
    act(() => result.current[1]('changed'));
    expect(hasDraft('edit')).toBe(true);
    act(() => result.current[1]('as saved'));
    expect(hasDraft('edit')).toBe(false);
  });

  it('ignores a stored value of another shape, and is all erased at once', () => {
    localStorage.setItem('vault.draft.bad', '{"title": 5, "content": "kept"}');
    expect(readDraft('bad', { title: '', content: '' })).toEqual({ title: '', content: 'kept' });
    localStorage.setItem('vault.draft.broken', '{');
    expect(readDraft('broken', '')).toBe('');
    localStorage.setItem('other', 'not ours');
    discardAllDrafts();
    expect(Object.keys(localStorage)).toEqual(['other']);
  });
});

describe('the screen to return to after signing in', () => {
  it('is the remembered path once, then /', () => {
    rememberScreen({ pathname: '/journal', search: '?a=1', hash: '' });
    expect(takeReturnPath()).toBe('/journal?a=1');
    expect(takeReturnPath()).toBe('/');
  });

  it('is never another origin or an API endpoint', () => {
    expect(isReturnable('/targets')).toBe(true);
    for (const path of ['//evil.example/x', '/\\evil.example', '/api/login', '/api', 'https://evil.example/']) {
      expect(isReturnable(path)).toBe(false);
    }
    sessionStorage.setItem('vault.returnTo', '//evil.example/');
    expect(takeReturnPath()).toBe('/');
  });
});
