import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { isRawBodyRoute } from '@vault/platform';
import { errorCodes, type FastifyInstance } from 'fastify';

/** The types a browser or client gives an archive (a `.zip`, or an encrypted `.age` file). */
export const ARCHIVE_CONTENT_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream', 'application/age'];

/**
 * Hands an archive upload, unread, as a stream to the restore route (flagged
 * RAW_BODY_ROUTE): it is spooled to disk under its own limit, never held.
 * Any other route is answered as Fastify answers an unknown type.
 */
@Injectable()
export class ArchiveBodies implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit() {
    const http = this.adapterHost.httpAdapter;
    if (http?.getType() !== 'fastify') return;
    const fastify = http.getInstance<FastifyInstance>();
    for (const type of ARCHIVE_CONTENT_TYPES) {
      if (fastify.hasContentTypeParser(type)) continue;
      fastify.addContentTypeParser(type, (request, payload, done) => {
        if (isRawBodyRoute(request.routeOptions.config)) done(null, payload);
        else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
      });
    }
  }
}
