import { afterEach, describe, expect, it, vi } from 'vitest';
import { HTTP_ROUTES } from '@vault/contracts';
import { apiRequest, callApi, getQueryFn, serverReason } from './api';
import { createQueryClient } from './query-client';
import { json, mockFetch, text } from '../test/utils';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest (error text rule)', () => {
  it('throws "{status}: {body}" for a non-OK answer', async () => {
    mockFetch({ 'GET /api/user': () => text('Unauthorized', 401, 'Unauthorized') });
    await expect(apiRequest('GET', '/api/user')).rejects.toThrow(new Error('401: Unauthorized'));
  });

  it('uses the status text when the body is empty', async () => {
    mockFetch({ 'DELETE /api/targets/1': () => text('', 500, 'Internal Server Error') });
    await expect(apiRequest('DELETE', '/api/targets/1')).rejects.toThrow(new Error('500: Internal Server Error'));
  });

  it('keeps a validation body as the message', async () => {
    mockFetch({ 'POST /api/login': () => text('username: must not be blank', 400, 'Bad Request') });
    await expect(apiRequest('POST', '/api/login', { username: '', password: 'x' })).rejects.toThrow('400: username: must not be blank');
  });

  it('keeps the body as it is, even when it looks like JSON', async () => {
    mockFetch({ 'GET /api/logs': () => text('{"message":"nope"}', 503, 'Service Unavailable') });
    await expect(apiRequest('GET', '/api/logs')).rejects.toThrow(new Error('503: {"message":"nope"}'));
  });

  it('sends JSON with the session credentials', async () => {
    const fetchMock = mockFetch({ 'POST /api/targets': () => json({ id: '1' }, 201) });
    const result = await callApi(HTTP_ROUTES.createTarget, { body: { title: 'A' } });
    expect(result).toEqual({ id: '1' });
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'A' }),
    });
  });

  it('puts the query of the call into the URL, in the order given', async () => {
    const fetchMock = mockFetch({ 'GET /api/journal?limit=50&offset=100': () => json([]) });
    expect(await callApi(HTTP_ROUTES.journal, { query: { limit: 50, offset: 100 } })).toEqual([]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('sends no body or content type without a payload', async () => {
    const fetchMock = mockFetch({ 'DELETE /api/targets/7': () => new Response(null, { status: 204 }) });
    const result = await callApi(HTTP_ROUTES.deleteTarget, { params: { id: '7' } });
    expect(result).toBeUndefined();
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.body).toBeUndefined();
    expect(init?.headers).toBeUndefined();
  });
});

describe('getQueryFn', () => {
  const context = (queryKey: string[]) =>
    ({ queryKey, signal: new AbortController().signal, meta: undefined }) as unknown as Parameters<ReturnType<typeof getQueryFn>>[0];

  it('returns null on 401 with on401 "returnNull"', async () => {
    mockFetch({ 'GET /api/user': () => text('Unauthorized', 401, 'Unauthorized') });
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/user']))).resolves.toBeNull();
  });

  it('throws the error text on 401 with on401 "throw"', async () => {
    mockFetch({ 'GET /api/targets': () => text('Unauthorized', 401, 'Unauthorized') });
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/targets']))).rejects.toThrow('401: Unauthorized');
  });

  it('fetches the query key joined as a URL', async () => {
    const fetchMock = mockFetch({ 'GET /api/schedule/2025-01-02': () => json([{ id: 's1' }]) });
    const data = await getQueryFn({ on401: 'throw' })(context(['/api/schedule', '2025-01-02']));
    expect(data).toEqual([{ id: 's1' }]);
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ credentials: 'same-origin' });
  });
});

describe('query client defaults', () => {
  it('never retries, never refetches on focus or by interval, and never goes stale', () => {
    const client = createQueryClient();
    const { queries, mutations } = client.getDefaultOptions();
    expect(queries?.retry).toBe(false);
    expect(queries?.refetchOnWindowFocus).toBe(false);
    expect(queries?.refetchInterval).toBe(false);
    expect(queries?.staleTime).toBe(Infinity);
    expect(typeof queries?.queryFn).toBe('function');
    expect(mutations?.retry).toBe(false);
  });
});

describe('serverReason (issue 17: show the reason the server gave)', () => {
  it('is the plain-text body of a refused call, without the status', async () => {
    mockFetch({
      'POST /api/bonaparte/subtract': () => text('amount: must not exceed the balance (1,000)', 422, 'Unprocessable Entity'),
    });
    const error = await apiRequest('POST', '/api/bonaparte/subtract', { amount: 5000 }).catch((e: unknown) => e);
    // The error text rule is unchanged.
    expect((error as Error).message).toBe('422: amount: must not exceed the balance (1,000)');
    expect(serverReason(error)).toBe('amount: must not exceed the balance (1,000)');
  });

  it('is absent when the server said nothing (status text only), sent markup or JSON, or the error is not an answer', async () => {
    mockFetch({
      'GET /a': () => text('', 500, 'Internal Server Error'),
      'GET /b': () => new Response('<html><body>Bad gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
      'GET /c': () => text('{"message":"nope"}', 503, 'Service Unavailable'),
    });
    for (const path of ['/a', '/b', '/c']) {
      const error = await apiRequest('GET', path).catch((e: unknown) => e);
      expect(serverReason(error)).toBeUndefined();
    }
    expect(serverReason(new Error('404: Not found'))).toBeUndefined();
    expect(serverReason('nope')).toBeUndefined();
  });

  it('keeps one line of at most 300 characters', async () => {
    mockFetch({ 'GET /long': () => text(`${'x'.repeat(400)}\nsecond line`, 400, 'Bad Request') });
    const error = await apiRequest('GET', '/long').catch((e: unknown) => e);
    const reason = serverReason(error)!;
    expect(reason.length).toBe(300);
    expect(reason.endsWith('…')).toBe(true);
    expect(reason).not.toContain('second line');
  });
});
