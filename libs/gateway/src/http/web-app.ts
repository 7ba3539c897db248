import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readSessionId } from '../session/session-cookie.js';
import { acceptedEncodings } from './compression.js';

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
  /** Whether a gzip copy is worth sending (text over 1 KB). */
  gzippable: boolean;
  /**
   * Made at the first request that takes gzip and not brotli, then kept:
   * made for every file at start it cost the embedded vault's start about
   * 30 ms, for copies that browsers, which all take brotli, never ask for.
   */
  gzip?: Buffer;
  /** Made by the build (`name.br` beside the file), never at start. */
  br?: Buffer;
  contentType: string;
  etag: string;
  immutable: boolean;
}

/** The build's list, per signed-in path, of the chunks and first reads of that screen (apps/web/route-hints.ts). */
const ROUTE_HINTS = '/route-hints.json';
type RouteHints = Record<string, { modules: string[]; reads: string[] }>;

/**
 * The built single-page app, read into memory once at start (a few hundred
 * kilobytes) and gzipped ahead of time. Its files are served as they are; any
 * other page path gets index.html so the app's router decides what to show.
 * To a browser with a session cookie, the page for a screen's path also names
 * that screen's code and first reads, so they load alongside the main script
 * instead of after it (they are public files and owner-only reads: a stale
 * cookie costs a wasted request, never data).
 */
export class WebApp {
  private readonly files = new Map<string, WebFile>();
  private readonly index: WebFile;
  private readonly signedInPages = new Map<string, WebFile>();

  constructor(readonly distDir: string) {
    if (!existsSync(join(distDir, 'index.html'))) throw new Error(`The web app is not built: ${join(distDir, 'index.html')} is missing`);
    const paths = [...walk(distDir)];
    const brotli = new Set(paths.filter((path) => path.endsWith('.br')));
    for (const path of paths) {
      if (brotli.has(path)) continue;
      const urlPath = `/${relative(distDir, path).split(sep).join('/')}`;
      const br = brotli.has(`${path}.br`) ? readFileSync(`${path}.br`) : undefined;
      this.files.set(urlPath, webFile(urlPath, readFileSync(path), br));
    }
    this.index = this.files.get('/index.html')!;
    const hints = this.files.get(ROUTE_HINTS);
    if (hints) {
      this.files.delete(ROUTE_HINTS);
      const html = this.index.body.toString('utf8');
      for (const [page, hint] of Object.entries(JSON.parse(hints.body.toString('utf8')) as RouteHints)) {
        this.signedInPages.set(page, webFile('/index.html', Buffer.from(html.replace('</head>', `${hintLinks(hint)}  </head>`))));
      }
    }
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
    const path = request.url.split('?')[0].replace(/\/+$/, '') || '/';
    const page = readSessionId(request) ? this.signedInPages.get(path) : undefined;
    this.send(request, reply, page ?? this.index, 'accept-encoding, cookie');
  }

  private send(request: FastifyRequest, reply: FastifyReply, file: WebFile, vary = 'accept-encoding') {
    reply
      .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('etag', file.etag)
      .header('vary', vary)
      .type(file.contentType);
    if (request.headers['if-none-match'] === file.etag) {
      reply.status(304).send();
      return;
    }
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    const [encoding, body] =
      file.br && accepted.has('br') ? ['br', file.br] : file.gzippable && accepted.has('gzip') ? ['gzip', gzipOf(file)] : [undefined, file.body];
    if (encoding) reply.header('content-encoding', encoding);
    reply.status(200).send(body);
  }
}

function webFile(urlPath: string, body: Buffer, br?: Buffer): WebFile {
  const extension = extname(urlPath);
  return {
    body,
    br,
    gzippable: COMPRESSIBLE.has(extension) && body.length > 1024,
    contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
    // Vite names assets by content hash: they never change under one name. The rest (the page,
    // the manifest, the icons, the service worker /sw.js) is revalidated on every use (no-cache),
    // so that a new build's worker is seen at the next visit and replaces the installed app's shell.
    immutable: urlPath.startsWith('/assets/'),
  };
}

/** The file's gzip copy: made the first time it is asked for, then kept. */
function gzipOf(file: WebFile): Buffer {
  if (!file.gzip) file.gzip = gzipSync(file.body, { level: 9 });
  return file.gzip;
}

/** The screen's chunks as module preloads (credentials as Vite's own script tag) and its first reads as fetch preloads (as the app's fetch). */
function hintLinks(hint: { modules: string[]; reads: string[] }): string {
  const modules = hint.modules.map((href) => `  <link rel="modulepreload" crossorigin href="${escapeAttribute(href)}" />\n`);
  const reads = hint.reads.map((href) => `  <link rel="preload" href="${escapeAttribute(href)}" as="fetch" crossorigin="anonymous" />\n`);
  return [...modules, ...reads].join('');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
