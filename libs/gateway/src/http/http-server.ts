import fastifyCookie from '@fastify/cookie';
import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { requestContext, type Logger } from '@vault/platform';
import { RpcClient } from '@vault/transport';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options.js';
import { refuseForeignHosts } from './allowed-hosts.js';
import { BODY_LIMIT_BYTES } from './body-limit.js';
import { CurrentUser } from '../auth/current-user.js';
import { AccessCheck } from '../vault/access-check.js';
import { clearSiteDataAfterSelfDestruct } from './clear-site-data.js';
import { compressJsonAnswers } from './compression.js';
import { refuseCrossSiteWrites } from './cross-site.js';
import { serveDirectly } from './direct-routes.js';
import { forwardedRoutes } from './forwarded-routes.js';
import { depthBoundedJsonParser } from './json-depth.js';
import { refuseNonJsonWrites } from './json-only-writes.js';
import { RequestObservation } from './request-observation.js';
import { addSecurityHeaders } from './security-headers.js';
import type { WebApp } from './web-app.js';

export { BODY_LIMIT_BYTES } from './body-limit.js';
export { ALLOWED_HOST_PATTERN, DEFAULT_ALLOWED_HOSTS } from './allowed-hosts.js';
export { MAX_JSON_DEPTH } from './json-depth.js';

export interface HttpServerOptions {
  /** Proxies whose X-Forwarded-* headers are believed (addresses or CIDRs); none by default. */
  trustedProxies: string[];
}

export function createHttpAdapter(options: HttpServerOptions): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: options.trustedProxies.length > 0 ? options.trustedProxies : false,
    requestIdHeader: false,
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
  });
}

/**
 * The plumbing around Nest's routes: cookies, the request id, access logs,
 * security headers (no-store on photos too; Clear-Site-Data after a
 * self-destruct), compressed JSON answers, the refusals that come before
 * any route runs and the web app's files. In order: a foreign Host (421), a
 * cross-site write (403), a write whose body is not JSON (415); then the body
 * is read, at most BODY_LIMIT_BYTES (413) and MAX_JSON_DEPTH deep (400).
 * Fastify's own refusals (bad JSON, oversized bodies) reach ErrorFilter
 * through Nest's error handler.
 */
export async function configureHttpServer(app: INestApplication, logger: Logger, web?: WebApp, uploadOrigins: string[] = []) {
  const fastify = (app as NestFastifyApplication).getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const { allowedHosts } = app.get<GatewayOptions>(GATEWAY_OPTIONS, { strict: false });
  // Before the refusals, so that they are counted too; it gives the request nothing.
  const observation = RequestObservation.of(app);
  observation.register(fastify);
  // First of the hooks that answer: a request for another host name gets nothing else.
  refuseForeignHosts(fastify, allowedHosts);
  await fastify.register(fastifyCookie);
  addSecurityHeaders(fastify, uploadOrigins);
  clearSiteDataAfterSelfDestruct(fastify);
  compressJsonAnswers(fastify);
  refuseCrossSiteWrites(fastify);
  refuseNonJsonWrites(fastify);
  // Registered before Nest's init, so it replaces Nest's default JSON parser rather than adding a second.
  (app as NestFastifyApplication).useBodyParser('application/json', { bodyLimit: BODY_LIMIT_BYTES }, depthBoundedJsonParser(fastify));

  // Everything the handler awaits runs under this request's id and trace, including calls to services.
  fastify.addHook('preHandler', (request, _reply, done) => requestContext.run({ requestId: request.id, trace: observation.traceOf(request) }, done));
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    // At LOG_LEVEL=warn, as a measured vault runs, the line is not even gathered.
    if (!logger.isLevelEnabled('info')) return done();
    logger.info(
      {
        requestId: request.id,
        traceId: observation.traceOf(request)?.traceId,
        method: request.method,
        url: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });

  // The table's routes that need none of Nest's per-request layers: every forwarded route, and the signed-in probe.
  serveDirectly(
    fastify,
    [...forwardedRoutes(app.get(RpcClient, { strict: false })), app.get(CurrentUser, { strict: false }).route],
    app.get(AccessCheck, { strict: false }),
  );

  if (web) {
    // The app's own files are answered before routing; page paths fall through to the SPA index (ErrorFilter).
    fastify.addHook('onRequest', (request, reply, done) => {
      if (!web.trySendFile(request, reply)) done();
    });
  }
}
