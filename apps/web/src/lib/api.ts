import type { QueryFunction } from '@tanstack/react-query';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * The error text rule (spec section 8): any non-OK answer raises an Error whose
 * message is "{status}: {body text}", or "{status}: {status text}" when the body is empty.
 */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  let text = '';
  try {
    text = await res.text();
  } catch {
    text = '';
  }
  throw new Error(`${res.status}: ${text || res.statusText}`);
}

/** Sends a request with the session cookie and an optional JSON body; throws by the error text rule. */
export async function apiRequest(method: HttpMethod, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  await throwIfResNotOk(res);
  return res;
}

/** Like apiRequest, then parses the JSON answer (undefined for an empty body). */
export async function apiJson<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, path, body);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** A react-query queryFn that GETs the query key joined as a URL. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'same-origin', signal });
    if (options.on401 === 'returnNull' && res.status === 401) {
      return null as T;
    }
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}
