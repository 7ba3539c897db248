import type { FastifyInstance } from 'fastify';
import { isRawBodyRoute } from '@vault/platform';
import type { IncomingHttpHeaders } from 'node:http';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export { RAW_BODY_ROUTE } from '@vault/platform';

export const UNTYPED_BODY = 'Content-Type: must be application/json (none was sent)';

/**
 * Why a request may not have its body read, or undefined when it may. A
 * state-changing call that carries a body or names a type must be JSON (any
 * parameters, such as a charset): a form, text/plain or multipart body is what
 * a page on another site can send without a preflight, and the API reads JSON
 * only. A bodiless POST or DELETE without a type (logout, the switches) passes.
 */
export function bodyTypeProblem(method: string, headers: IncomingHttpHeaders): string | undefined {
  if (!STATE_CHANGING.has(method)) return undefined;
  const type = headers['content-type'];
  if (type === undefined) {
    const length = headers['content-length'];
    const hasBody = headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
    return hasBody ? UNTYPED_BODY : undefined;
  }
  const mediaType = type.split(';')[0].trim().toLowerCase();
  if (mediaType === 'application/json') return undefined;
  return mediaType
    ? `Content-Type: must be application/json, not ${mediaType.slice(0, 100)}`
    : 'Content-Type: must be application/json (an empty one was sent)';
}

/** Answers 415 to a state-changing call whose body is not JSON, before the body is read and before any guard or handler. */
export function refuseNonJsonWrites(fastify: FastifyInstance) {
  fastify.addHook('onRequest', (request, reply, done) => {
    const rawBody = isRawBodyRoute(request.routeOptions.config);
    const problem = rawBody ? undefined : bodyTypeProblem(request.method, request.headers);
    if (!problem) return done();
    reply.status(415).type('text/plain; charset=utf-8').send(problem);
  });
}
