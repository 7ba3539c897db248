import { describe, expect, it } from '@jest/globals';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import * as contracts from '@vault/contracts';
import { HTTP_ROUTES, type HttpMethod, type RpcContract } from '@vault/contracts';
import { IS_PUBLIC } from '@vault/platform';
import type { RpcClient } from '@vault/transport';
import { CurrentUser } from './auth/current-user.js';
import { GatewayModule } from './gateway.module.js';
import type { GatewayOptions } from './gateway.options.js';
import type { DirectRoute } from './http/direct-routes.js';
import { forwardedRoutes } from './http/forwarded-routes.js';
import type { VaultStateCache } from './vault/vault-state.cache.js';

const METHODS: Partial<Record<RequestMethod, HttpMethod>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.PATCH]: 'PATCH',
  [RequestMethod.DELETE]: 'DELETE',
};

const joined = (...parts: string[]) =>
  `/${parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/')}`;

interface RouteHandler {
  /** "METHOD /path". */
  route: string;
  public: boolean;
  /** Calls the route's handler as its server would, on a gateway whose RpcClient is `rpc`. */
  call: (rpc: Pick<RpcClient, 'forward' | 'send'>) => Promise<unknown>;
}

/** A request whose body, query and parameters are empty objects, as the forwarded routes read them. */
const emptyRequest = () => ({ body: {}, query: {}, params: {} });

/** The routes Fastify serves directly (configureHttpServer), on a gateway whose RpcClient is `rpc`. */
function directRoutes(rpc: Pick<RpcClient, 'forward' | 'send'>): DirectRoute[] {
  const currentUser = new CurrentUser({ get: async () => ({ destroyed: false, globalAccess: true }) } as unknown as VaultStateCache, rpc as RpcClient);
  return [...forwardedRoutes(rpc), currentUser.route];
}

/** Every route the gateway serves, its controllers' and Fastify's own, with its method, path and whether it is public. */
function routeHandlers(): RouteHandler[] {
  const controllers = (GatewayModule.forRoot({ sessionTtlSeconds: 60 } as GatewayOptions).controllers ?? []) as Type[];
  const handlers: RouteHandler[] = [];
  for (const controller of controllers) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      if (path === undefined) continue;
      const method = METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const open = Reflect.getMetadata(IS_PUBLIC, handler) === true || Reflect.getMetadata(IS_PUBLIC, controller) === true;
      handlers.push({
        route: `${method} ${joined(base, path)}`,
        public: open,
        // A bare controller with only its RpcClient: a handler that needs more stops before any call, which the test reports.
        call: (rpc) =>
          (handler as (...args: unknown[]) => Promise<unknown>).apply(
            Object.assign(Object.create(controller.prototype as object) as object, { rpc }),
            Array.from({ length: Math.max((handler as () => unknown).length, 3) }, emptyRequest),
          ),
      });
    }
  }
  for (const route of directRoutes({ forward: async () => undefined as never, send: async () => undefined as never }))
    handlers.push({
      route: `${route.line.method} ${route.line.path}`,
      public: route.line.public,
      call: (rpc) =>
        directRoutes(rpc)
          .find((r) => r.name === route.name)!
          .answer(emptyRequest() as never),
    });
  return handlers;
}

/** Every route the gateway's controllers declare, as "METHOD /path" with " (public)" where it is. */
function servedRoutes(): string[] {
  return routeHandlers()
    .map((h) => `${h.route}${h.public ? ' (public)' : ''}`)
    .sort();
}

/**
 * The contract a handler calls first, and whether it forwarded the request's
 * own (untrusted) data: the handler runs with an RpcClient that only records,
 * with an empty object for each argument. A handler that needs more than its
 * RpcClient stops before any call, which the test reports.
 */
async function contractCalledBy(handler: RouteHandler): Promise<{ contract?: RpcContract; forwarded: boolean }> {
  const called: { contract?: RpcContract; forwarded: boolean } = { forwarded: false };
  const record = (forwarded: boolean) => (contract: RpcContract) => {
    if (!called.contract) Object.assign(called, { contract, forwarded });
    return Promise.resolve(undefined as never);
  };
  try {
    await handler.call({ forward: record(true), send: record(false) });
  } catch {
    // Reported by the caller when the route names a contract that was never called.
  }
  return called;
}

describe('the HTTP route table (@vault/contracts HTTP_ROUTES)', () => {
  it('is exactly what the gateway serves: each method and path, and which are public', () => {
    const declared = Object.values(HTTP_ROUTES)
      .map((route) => `${route.method} ${route.path}${route.public ? ' (public)' : ''}`)
      .sort();
    expect(declared).toEqual(servedRoutes());
  });

  it('names each route once', () => {
    const keys = Object.values(HTTP_ROUTES).map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('sends each route that names a contract (rpc) to that contract, and names the contract of every route that forwards the request', async () => {
    const byRoute = new Map(Object.values(HTTP_ROUTES).map((route) => [`${route.method} ${route.path}`, route]));
    const problems: string[] = [];
    for (const handler of routeHandlers()) {
      const named = byRoute.get(handler.route)?.rpc;
      const called = await contractCalledBy(handler);
      // biome-ignore lint/performance/noDynamicNamespaceImportAccess: the table names each contract; a test, not a bundle.
      const expected = named ? (contracts[named] as RpcContract) : undefined;
      if (expected && called.contract !== expected)
        problems.push(`${handler.route}: its line names ${named} (${expected.pattern}), the gateway calls ${called.contract?.pattern ?? 'no contract'}`);
      if (!expected && called.forwarded) problems.push(`${handler.route}: forwards the request to ${called.contract?.pattern}, but its line names no rpc`);
    }
    expect(problems).toEqual([]);
  });
});
