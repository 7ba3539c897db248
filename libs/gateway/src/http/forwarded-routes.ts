import * as contracts from '@vault/contracts';
import { HTTP_ROUTES, type HttpRoute, type RpcContract } from '@vault/contracts';
import type { RpcClient } from '@vault/transport';
import type { FastifyRequest } from 'fastify';
import type { DirectRoute } from './direct-routes.js';
import { jsonObjectOf } from './json-body.decorator.js';

const WRITES: ReadonlySet<HttpRoute['method']> = new Set(['POST', 'PUT', 'PATCH']);

/** A line of HTTP_ROUTES, whatever its body and answer. */
type AnyRoute = HttpRoute<unknown, unknown>;
/** A route that only passes its request on: a line that names its contract and is not served by a controller of its own. */
type ForwardedRoute = AnyRoute & { rpc: NonNullable<AnyRoute['rpc']> };

/** The lines of HTTP_ROUTES that only pass a request on to their service, by their names in the table. */
export const FORWARDED_ROUTES: readonly (readonly [string, ForwardedRoute])[] = (Object.entries(HTTP_ROUTES) as [string, AnyRoute][]).filter(
  (entry): entry is [string, ForwardedRoute] => entry[1].rpc !== undefined && entry[1].forward !== false,
);

/**
 * What a route forwards to its contract: a write's JSON body, a read's or a
 * delete's query, and the path's parameters over either, so a body cannot
 * name another record than the URL does. The service parses it with the
 * contract and refuses what does not fit with a 400.
 */
export function forwardedRequest(route: AnyRoute, request: Pick<FastifyRequest, 'body' | 'query' | 'params'>): Record<string, unknown> {
  const given = WRITES.has(route.method) ? jsonObjectOf(request.body) : ((request.query ?? {}) as Record<string, unknown>);
  return { ...given, ...((request.params ?? {}) as Record<string, unknown>) };
}

/**
 * Every route that only passes a request on to its service, served from its
 * line of HTTP_ROUTES: a new route of that kind is its contract, its line and
 * its handler in the service, with no code here.
 */
export function forwardedRoutes(rpc: Pick<RpcClient, 'forward'>): DirectRoute[] {
  return FORWARDED_ROUTES.map(([name, line]) => {
    // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the table names the contract; the gateway holds them all anyway.
    const contract = contracts[line.rpc] as RpcContract;
    return { name, line, answer: (request: FastifyRequest) => rpc.forward(contract, forwardedRequest(line, request)) };
  });
}
