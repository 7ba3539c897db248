import type { FastifyInstance } from 'fastify';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Smaller answers are sent as they are: compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
// Quality 4: most of brotli's gain at a fraction of its default (11) cost, for answers made per request.
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/** The encodings an Accept-Encoding header names, less those it refuses with `;q=0`. */
export function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name);
  }
  return accepted;
}

/** The best encoding the client accepts (`br`, then `gzip`). */
export function acceptedEncoding(header: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const accepted = acceptedEncodings(header);
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined;
}

/** The encoding an answer is to be sent in, or undefined when it is to be sent as it is: decided without touching its bytes. */
export function encodingFor(payload: unknown, contentType: unknown, acceptEncoding: string | string[] | undefined): 'br' | 'gzip' | undefined {
  // Cheapest first: most answers to a client that accepts none (a script, a probe) stop here.
  if (acceptEncoding === undefined || typeof payload !== 'string' || payload.length < COMPRESS_MIN_BYTES / 3) return undefined;
  if (!String(contentType ?? '').startsWith('application/json')) return undefined;
  const encoding = acceptedEncoding(acceptEncoding);
  return encoding && Buffer.byteLength(payload) >= COMPRESS_MIN_BYTES ? encoding : undefined;
}

/** The answer's bytes in the accepted encoding, or undefined when it is to be sent as it is. */
export async function compressedAnswer(payload: unknown, contentType: unknown, acceptEncoding: string | string[] | undefined) {
  const encoding = encodingFor(payload, contentType, acceptEncoding);
  if (!encoding) return undefined;
  return { encoding, body: encoding === 'br' ? await brotli(payload as string, BROTLI) : await gzipAsync(payload as string) };
}

/**
 * Compresses the API's JSON answers for clients that accept it: a dashboard
 * of 10,000 targets is 1.8 MB of JSON and about a tenth of that compressed
 * (docs/performance.md). The web app's files are served precompressed;
 * other answers (photos, plain-text errors, small JSON) pass untouched, by a
 * hook that decides so synchronously (an async hook cost every answer a
 * promise and its turns of the microtask queue).
 */
export function compressJsonAnswers(fastify: FastifyInstance) {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (reply.hasHeader('content-encoding') || !encodingFor(payload, reply.getHeader('content-type'), request.headers['accept-encoding']))
      return done(null, payload);
    compressedAnswer(payload, reply.getHeader('content-type'), request.headers['accept-encoding']).then((compressed) => {
      if (!compressed) return done(null, payload);
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
      reply.header('content-encoding', compressed.encoding);
      reply.removeHeader('content-length');
      done(null, compressed.body);
    }, done);
  });
}
