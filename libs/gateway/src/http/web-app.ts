import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.webmanifest', '.txt']);

interface WebFile {
  body: Buffer;
  gzip?: Buffer;
  contentType: string;
  etag: string;
  immutable: boolean;
}

/**
 * The built single-page app, read into memory once at start (a few hundred
 * kilobytes) and gzipped ahead of time. Its files are served as they are; any
 * other page path gets index.html so the app's router decides what to show.
 */
export class WebApp {
  private readonly files = new Map<string, WebFile>();
  private readonly index: WebFile;

  constructor(readonly distDir: string) {
    if (!existsSync(join(distDir, 'index.html'))) throw new Error(`The web app is not built: ${join(distDir, 'index.html')} is missing`);
    for (const path of walk(distDir)) {
      const urlPath = `/${relative(distDir, path).split(sep).join('/')}`;
      const extension = extname(path);
      const body = readFileSync(path);
      this.files.set(urlPath, {
        body,
        gzip: COMPRESSIBLE.has(extension) && body.length > 1024 ? gzipSync(body, { level: 9 }) : undefined,
        contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
        etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
        // Vite names assets by content hash: they never change under one name.
        immutable: urlPath.startsWith('/assets/'),
      });
    }
    this.index = this.files.get('/index.html')!;
  }

  /** A page path that the app's router handles (not the API, health or objects). */
  serves(request: FastifyRequest): boolean {
    return (request.method === 'GET' || request.method === 'HEAD') && !/^\/(api|health|objects)(\/|$)/.test(request.url);
  }

  /** Answers a request for one of the app's files; false when the path names none. */
  trySendFile(request: FastifyRequest, reply: FastifyReply): boolean {
    if (!this.serves(request)) return false;
    const path = request.url.split('?')[0];
    const file = path === '/' ? undefined : this.files.get(path);
    if (!file) return false;
    this.send(request, reply, file);
    return true;
  }

  sendIndex(request: FastifyRequest, reply: FastifyReply) {
    this.send(request, reply, this.index);
  }

  private send(request: FastifyRequest, reply: FastifyReply, file: WebFile) {
    reply
      .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('etag', file.etag)
      .header('vary', 'accept-encoding')
      .type(file.contentType);
    if (request.headers['if-none-match'] === file.etag) {
      reply.status(304).send();
      return;
    }
    const gzip = file.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (gzip) reply.header('content-encoding', 'gzip');
    reply.status(200).send(gzip ? file.gzip : file.body);
  }
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
