import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AccessRecorder } from '../audit/access-recorder.js';
import type { PendingSignInStore } from '../session/pending-sign-in.store.js';
import { SESSION_COOKIE } from '../session/session-cookie.js';
import type { SessionStore } from '../session/session.store.js';
import { SessionController } from './session.controller.js';
import type { SessionIssuer } from './session-issuer.js';

const SESSION_ID = 'b'.repeat(43);

describe('GET /api/logout', () => {
  const destroyed: string[] = [];
  const recorded: string[] = [];
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    // Stand-ins: only what the logout uses is under test (the session store, the access log).
    const sessions = { destroy: async (id: string) => void destroyed.push(id) } as unknown as SessionStore;
    const access = { record: (_request: unknown, action: string) => void recorded.push(action) } as unknown as AccessRecorder;
    const controller = new SessionController(sessions, {} as PendingSignInStore, {} as SessionIssuer, access);
    app = Fastify();
    await app.register(fastifyCookie);
    app.get('/api/logout', (request, reply) => controller.logout(request, reply));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('ends the session, clears its cookie and tells the browser to forget its cache and storage', async () => {
    const response = await fetch(`${base}/api/logout`, { redirect: 'manual', headers: { cookie: `${SESSION_COOKIE}=${SESSION_ID}` } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
    expect(response.headers.get('clear-site-data')).toBe('"cache", "storage"');
    expect(response.headers.get('set-cookie')).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    expect(destroyed).toEqual([SESSION_ID]);
    expect(recorded).toEqual(['logout']);
  });

  it('clears the browser too when it had no session any more', async () => {
    const response = await fetch(`${base}/api/logout`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('clear-site-data')).toBe('"cache", "storage"');
  });
});
