import { describe, expect, it } from '@jest/globals';
import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { HTTP_ROUTES, type HttpMethod } from '@vault/contracts';
import { IS_PUBLIC } from '@vault/platform';
import { GatewayModule } from './gateway.module.js';
import type { GatewayOptions } from './gateway.options.js';

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

/** Every route the gateway's controllers declare, as "METHOD /path" with " (public)" where it is. */
function servedRoutes(): string[] {
  const controllers = (GatewayModule.forRoot({ sessionTtlSeconds: 60 } as GatewayOptions).controllers ?? []) as Type[];
  const routes: string[] = [];
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
      routes.push(`${method} ${joined(base, path)}${open ? ' (public)' : ''}`);
    }
  }
  return routes.sort();
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
});
