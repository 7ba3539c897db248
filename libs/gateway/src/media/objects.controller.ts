import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { LocatePhoto } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { markAsPhoto } from './photo-answer-headers.js';
import { openPhotoSource } from '@vault/archive';

/**
 * `GET /objects/photos/<id>`: a registered photo, to the signed-in owner only
 * (the access guard covers this route like every other not marked @Public).
 * media-svc authorises and locates; this streams. The type is the one media-svc
 * read from the bytes, never the uploader's, and `nosniff` (added to every
 * answer) keeps the browser to it; the photo's own policy (photo-answer-headers.ts)
 * keeps it from ever running as a page.
 */
@Controller('objects')
export class ObjectsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('photos/:id')
  async photo(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const photo = await this.rpc.forward(LocatePhoto, { id });
    const etag = `"${photo.id}"`;
    // Never kept by the browser (security-headers.ts: no-store under /objects/); the ETag
    // still spares a second download to a client that keeps its own copy. A photo never changes under its id.
    reply.header('etag', etag);
    markAsPhoto(reply);
    if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
    const body = await openPhotoSource(photo.source);
    return reply.status(200).type(photo.contentType).header('content-length', String(photo.size)).send(body);
  }
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  return (ifNoneMatch ?? '').split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
