import { expect, it } from '@jest/globals';
import { ApiClient, TEST_OWNER as OWNER } from '@vault/testing';

/** What the journal's API promises (spec 2.9, 5, 7), whatever the run mode. */
export function describeJournalApi(baseUrl: () => string) {
  const signedIn = async () => {
    const client = new ApiClient(baseUrl());
    expect((await client.login(OWNER.username, OWNER.password)).status).toBe(200);
    return client;
  };

  it('stores an entry as typed, line breaks kept, title trimmed', async () => {
    const client = await signedIn();
    const created = await client.request('POST', '/api/journal', { title: '  Field notes ', content: '  line one\nline two  ' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ title: 'Field notes', content: '  line one\nline two  ' });
    expect(created.json.updatedAt).toBe(created.json.createdAt);
    const untitled = await client.request('POST', '/api/journal', { title: '   ', content: 'no title here' });
    expect(untitled.json).not.toHaveProperty('title');
    const listed = (await client.request('GET', '/api/journal')).json;
    expect(listed[0]).toEqual(untitled.json);
    expect(listed[1]).toEqual(created.json);
  });

  it('changes updatedAt only on an edit', async () => {
    const client = await signedIn();
    const { json: entry } = await client.request('POST', '/api/journal', { content: 'first draft' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const edited = await client.request('PATCH', `/api/journal/${entry.id}`, { title: 'Revised', content: 'second draft' });
    expect(edited.json).toMatchObject({ id: entry.id, title: 'Revised', content: 'second draft', createdAt: entry.createdAt });
    expect(Date.parse(edited.json.updatedAt)).toBeGreaterThan(Date.parse(entry.createdAt));
    const untitled = await client.request('PATCH', `/api/journal/${entry.id}`, { content: 'third draft' });
    expect(untitled.json).not.toHaveProperty('title');
    expect((await client.request('DELETE', `/api/journal/${entry.id}`)).status).toBe(200);
    expect((await client.request('DELETE', `/api/journal/${entry.id}`)).status).toBe(404);
  });

  it('refuses empty content and bad ids with a clear 4xx, changing nothing', async () => {
    const client = await signedIn();
    const before = (await client.request('GET', '/api/journal')).json;
    const refusals: Array<[unknown, RegExp]> = [
      [{ content: '   \n  ' }, /content: must not be empty/],
      [{ title: 'Only a title' }, /content: is required/],
      [{ content: 42 }, /content: must be a string/],
      [{ content: 'x'.repeat(100_001) }, /content: must be at most 100000 characters/],
      [{ title: 't'.repeat(201), content: 'ok' }, /title: must be at most 200 characters/],
    ];
    for (const [body, message] of refusals) {
      const answer = await client.request('POST', '/api/journal', body);
      expect([answer.status, answer.text]).toEqual([400, expect.stringMatching(message)]);
    }
    expect((await client.request('PATCH', '/api/journal/00000000-0000-4000-8000-000000000000', { content: 'x' })).status).toBe(404);
    expect((await client.request('PATCH', '/api/journal/not-an-id', { content: 'x' })).status).toBe(400);
    if (before[0]) expect((await client.request('PATCH', `/api/journal/${before[0].id}`, { content: ' ' })).status).toBe(400);
    expect((await client.request('GET', '/api/journal')).json).toEqual(before);
  });

  it('counts entries and pages through them newest first', async () => {
    const client = await signedIn();
    for (let i = 0; i < 5; i++) await client.request('POST', '/api/journal', { content: `page entry ${i}` });
    const all = (await client.request('GET', '/api/journal')).json;
    expect((await client.request('GET', '/api/journal/count')).json).toEqual({ count: all.length });
    const page = (await client.request('GET', '/api/journal?limit=2&offset=1')).json;
    expect(page).toEqual(all.slice(1, 3));
    expect((await client.request('GET', '/api/journal?limit=-1')).status).toBe(400);
    expect((await client.request('GET', '/api/journal?limit=9999')).status).toBe(400);
  });

  it('searches words and phrases sent in the body, answering entries as the list does, never stored by a cache', async () => {
    const client = await signedIn();
    const tag = `zq${Date.now().toString(36)}`;
    const dawn = (await client.request('POST', '/api/journal', { title: `Opération ${tag}`, content: 'Le café près de la porte rouge.' })).json;
    await client.request('POST', '/api/journal', { content: `${tag} sans titre` });
    const search = (body: unknown) => client.request('POST', '/api/journal/search', body);
    const byWord = await search({ query: `OPERATION ${tag}` });
    expect([byWord.status, byWord.json]).toEqual([200, [dawn]]);
    expect(byWord.headers.get('cache-control')).toBe('no-store');
    expect((await search({ query: `${tag} "porte rouge"` })).json).toEqual([dawn]);
    expect((await search({ query: `${tag} "rouge porte"` })).json).toEqual([]);
    expect((await search({ query: tag })).json.map((entry: { id: string }) => entry.id)).toHaveLength(2);
    expect((await search({ query: tag, limit: 1, offset: 1 })).json).toEqual([dawn]);
    for (const [body, message] of [
      [{}, /query: is required/],
      [{ query: '""' }, /query: must contain a word to look for/],
      [{ query: 'x'.repeat(201) }, /query: must be at most 200 characters/],
      [{ query: tag, limit: 0 }, /limit: must be at least 1/],
    ] as const) {
      const answer = await search(body);
      expect([answer.status, answer.text]).toEqual([400, expect.stringMatching(message)]);
    }
    // The query belongs in the body: a GET with it in the URL is not a route.
    expect((await client.request('GET', `/api/journal/search?query=${tag}`)).status).toBe(404);
  });
}
