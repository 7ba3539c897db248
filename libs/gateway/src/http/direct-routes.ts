import type { HttpRoute } from '@vault/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AccessCheck, OWNERS_ROUTE, type AuthenticatedRequest } from '../vault/access-check.js';

/** A line of HTTP_ROUTES the gateway answers by a function of the request, once the request may have it. */
export interface DirectRoute {
  /** Its name in HTTP_ROUTES. */
  readonly name: string;
  readonly line: HttpRoute<unknown, unknown>;
  answer(request: AuthenticatedRequest): Promise<unknown>;
}

/**
 * Serves the lines that need nothing of Nest's per-request layers (the
 * forwarded routes and the signed-in probe) as Fastify's own routes: the
 * access check of the line's rule, the answer, its status (the line's, else
 * Nest's: 201 for a POST, 200 otherwise). Nest's router, its guards'
 * execution contexts and its response handling around them were a fifth of
 * a signed-in read's CPU. The hooks of configureHttpServer run as for any
 * route; a refusal or failure goes to Nest's error handler, and from there to
 * ErrorFilter, as Fastify's own refusals do (docs/adr/0022).
 */
export function serveDirectly(fastify: FastifyInstance, routes: readonly DirectRoute[], access: AccessCheck): void {
  for (const { line, answer } of routes) {
    const rule = line.public ? { ...OWNERS_ROUTE, public: true } : OWNERS_ROUTE;
    const status = line.status ?? (line.method === 'POST' ? 201 : 200);
    fastify.route({
      method: line.method,
      url: line.path,
      handler: async (request: FastifyRequest, reply) => {
        await access.check(request, rule);
        const answered = await answer(request);
        return reply.code(status).send(answered);
      },
    });
  }
}
