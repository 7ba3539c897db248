import type { FastifyRequest } from 'fastify';

/**
 * The WebAuthn relying party of a request: the host name the browser used
 * (already one of the allowed hosts, or the request would not be here), and
 * the origin its answer must name: scheme, host and port as the browser saw
 * them (behind a trusted proxy, its forwarded scheme and host).
 */
export function relyingParty(request: FastifyRequest): { rpID: string; origin: string } {
  return { rpID: request.hostname, origin: `${request.protocol}://${request.host}` };
}
