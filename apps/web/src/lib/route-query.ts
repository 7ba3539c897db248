import { queryOptions } from '@tanstack/react-query';
import type { HttpRoute } from '@vault/contracts';
import { getQueryFn, routeUrl, type UnauthorizedBehavior } from './api';

/**
 * The query key of a GET route of the API's table (HTTP_ROUTES): its URL cut
 * into `/api/<resource>` and the parts after it, so that a resource's key is
 * the prefix of the keys below it (invalidating ['/api/journal'] refreshes
 * ['/api/journal', 'count'] too). The default query function joins it back
 * into the URL.
 */
export function routeKey(route: HttpRoute<never, unknown>, params?: Record<string, string>): string[] {
  const [, api, resource, ...rest] = routeUrl(route, params).split('/');
  return [`/${api}/${resource}`, ...rest];
}

/** The key of a whole resource (`/api/schedule`), the prefix of every key of its routes. */
export function resourceKey(route: HttpRoute<never, unknown>): string[] {
  return [route.path.split('/').slice(0, 3).join('/')];
}

interface RouteQueryOptions {
  /** The `:name` parts of the route's path. */
  params?: Record<string, string>;
}

/**
 * The query of one GET route: its key (routeKey) carries the type of the
 * route's answer (TanStack's DataTag), so useQuery, getQueryData and
 * setQueryData are typed by the route table, never by an assertion.
 */
export function routeQuery<Reply>(route: HttpRoute<never, Reply>, options: RouteQueryOptions = {}) {
  return queryOptions({ queryKey: routeKey(route, options.params), queryFn: getQueryFn<Reply>({ on401: 'throw' }) });
}

/** Like routeQuery, with null for a 401 answer instead of an error (the current user: a visitor has none). */
export function routeQueryOrNullOn401<Reply>(route: HttpRoute<never, Reply>, options: RouteQueryOptions = {}) {
  const on401: UnauthorizedBehavior = 'returnNull';
  return queryOptions({ queryKey: routeKey(route, options.params), queryFn: getQueryFn<Reply | null>({ on401 }) });
}
