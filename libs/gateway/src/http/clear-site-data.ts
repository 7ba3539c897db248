import { HTTP_ROUTES } from '@vault/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * What a browser is told to forget when the owner's use of it ends: its HTTP
 * cache and the site's storage (local and session storage, IndexedDB, the
 * service worker and its caches). Cookies are the session's own business:
 * the logout clears its cookie itself. A browser without Clear-Site-Data
 * ignores the header; the web app deletes its worker and caches itself too.
 */
export const CLEAR_SITE_DATA = '"cache", "storage"';

export function clearSiteData(reply: FastifyReply): void {
  reply.header('clear-site-data', CLEAR_SITE_DATA);
}

/**
 * The answer to a confirmed self-destruct (200) clears the browser that asked
 * for it: what it kept of the vault (drafts, the installed app's shell) goes
 * with the vault. Added here, with the other answer headers, so that the
 * settings routes stay about the vault; a refused self-destruct clears nothing.
 */
export function clearSiteDataAfterSelfDestruct(fastify: FastifyInstance): void {
  const { method, path } = HTTP_ROUTES.selfDestruct;
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === method && request.routeOptions.url === path && reply.statusCode === 200) clearSiteData(reply);
    done(null, payload);
  });
}
