import type { FastifyReply, FastifyRequest } from 'fastify';
import { isWellFormedSessionId } from './session-id.js';

export const SESSION_COOKIE = 'vault_session';

export function readSessionId(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[SESSION_COOKIE];
  return isWellFormedSessionId(value) ? value : undefined;
}

/** HttpOnly and SameSite=Strict always; Secure whenever the request came over TLS. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, id: string, maxAgeSeconds: number) {
  reply.setCookie(SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' });
}

/** The pending sign-in's cookie: only the sign-in routes receive it. */
export const PENDING_SIGN_IN_COOKIE = 'vault_sign_in';
const PENDING_PATH = '/api/login';

export function readPendingSignInId(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[PENDING_SIGN_IN_COOKIE];
  return isWellFormedSessionId(value) ? value : undefined;
}

export function setPendingSignInCookie(request: FastifyRequest, reply: FastifyReply, id: string, maxAgeSeconds: number) {
  reply.setCookie(PENDING_SIGN_IN_COOKIE, id, {
    path: PENDING_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
  });
}

export function clearPendingSignInCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(PENDING_SIGN_IN_COOKIE, { path: PENDING_PATH, httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' });
}
