import type { QueryFunction } from '@tanstack/react-query';
import type { HttpMethod, HttpRoute } from '@vault/contracts';

export type { HttpMethod };

/** What a refused call answered. */
export interface RefusedAnswer {
  status: number;
  statusText: string;
  body: string;
  contentType: string;
}

/**
 * A refused call. Its message follows the error text rule (spec section 8):
 * "{status}: {body text}", or "{status}: {status text}" when the body is empty.
 * It also keeps the answer's parts apart, so that a screen can show the
 * server's own reason (see serverReason) without parsing the message. They are
 * held privately, so the error still equals (and prints as) the plain Error
 * with that message.
 */
export class ApiError extends Error {
  readonly #answer: RefusedAnswer;

  constructor(answer: RefusedAnswer) {
    super(`${answer.status}: ${answer.body || answer.statusText}`);
    this.#answer = answer;
  }

  get answer(): RefusedAnswer {
    return this.#answer;
  }
}

/** Throws an ApiError for a non-OK answer (the error text rule). */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  let text = '';
  try {
    text = await res.text();
  } catch {
    text = '';
  }
  throw new ApiError({ status: res.status, statusText: res.statusText, body: text, contentType: res.headers.get('Content-Type') ?? '' });
}

/** Longest reason shown; a longer one is cut with an ellipsis. */
export const MAX_REASON_LENGTH = 300;

/**
 * The reason the server gave for refusing a call: the plain-text body of its
 * answer ("amount: must not exceed the balance (1,000)"), first line only.
 * Undefined when there is none to show: an empty body (only the status text),
 * markup or JSON (a proxy's error page, not the vault's words), or an error
 * that is not a refused call.
 */
export function serverReason(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const { body, contentType } = error.answer;
  if (/html|json|xml/i.test(contentType)) return undefined;
  const line = body.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
  if (!line || /^[<{[]/.test(line)) return undefined;
  return line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH - 1)}…` : line;
}

/** Sends a request with the session cookie and an optional JSON body; throws by the error text rule. */
export async function apiRequest(method: HttpMethod, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const init: RequestInit = { method, credentials: 'same-origin', ...(signal ? { signal } : {}) };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  await throwIfResNotOk(res);
  return res;
}

/**
 * A route's answer from its text: JSON, undefined when empty. The one place
 * the web takes the server's word for a shape, which the route table names.
 */
export function parseReply<Body, Reply>(_route: HttpRoute<Body, Reply>, text: string): Reply {
  return (text ? JSON.parse(text) : undefined) as Reply;
}

/** A route's URL with its `:name` parts filled in, each encoded. */
export function routeUrl(route: HttpRoute<unknown, unknown>, params: Record<string, string> = {}): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.path}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}

/** What a call sends: the path's parameters, its query string, and the body the route's contract describes. */
export interface ApiCall<Body> {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: [Body] extends [never] ? Record<string, unknown> : Body;
  signal?: AbortSignal;
}

/**
 * Calls a route of the API's table (HTTP_ROUTES in @vault/contracts): its
 * method and path come from there, and so do the types of its body and of its
 * answer. Throws by the error text rule.
 */
export async function callApi<Body, Reply>(route: HttpRoute<Body, Reply>, call: ApiCall<Body> = {}): Promise<Reply> {
  const search = call.query ? `?${new URLSearchParams(Object.entries(call.query).map(([name, value]) => [name, String(value)]))}` : '';
  const res = await apiRequest(route.method, routeUrl(route as HttpRoute<unknown, unknown>, call.params) + search, call.body, call.signal);
  return parseReply(route, await res.text());
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
