import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { isRawBodyRoute } from '@vault/platform';
import { errorCodes, type FastifyInstance } from 'fastify';

/**
 * Fastify parses only JSON and text bodies, and refuses any other type with
 * 415 before a route runs. A photo arrives with whatever type the browser
 * guessed, so this catch-all hands the body, unread, as a stream to the
 * routes flagged RAW_BODY_ROUTE (@vault/platform), and answers every other route as Fastify would.
 */
@Injectable()
export class RawUploadBodies implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit() {
    const http = this.adapterHost.httpAdapter;
    // A service process without an HTTP server has no uploads to take.
    if (!http) return;
    if (http.getType() !== 'fastify') throw new Error('The embedded photo upload route needs the Fastify HTTP adapter');
    const fastify = http.getInstance<FastifyInstance>();
    if (fastify.hasContentTypeParser('*')) throw new Error('Another module already parses every content type');
    fastify.addContentTypeParser('*', (request, payload, done) => {
      if (isRawBodyRoute(request.routeOptions.config)) done(null, payload);
      else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
    });
  }
}
