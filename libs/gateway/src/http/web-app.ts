import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The built single-page app. Its files are served as they are; any other page
 * path gets index.html so the app's router decides what to show.
 */
export class WebApp {
  private readonly index: Buffer;

  constructor(readonly distDir: string) {
    const indexPath = join(distDir, 'index.html');
    if (!existsSync(indexPath)) throw new Error(`The web app is not built: ${indexPath} is missing`);
    this.index = readFileSync(indexPath);
  }

  serves(request: FastifyRequest): boolean {
    return (request.method === 'GET' || request.method === 'HEAD') && !/^\/(api|health|objects)(\/|$)/.test(request.url);
  }

  sendIndex(reply: FastifyReply) {
    return reply.status(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(this.index);
  }
}
