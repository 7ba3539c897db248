import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The deepest JSON body the API takes. Its bodies are one object of plain
 * fields (two levels at most); 32 leaves room and stops a body nested
 * thousands of levels deep, which overflows the stack of whatever walks it
 * (a service's validation answered 503).
 */
export const MAX_JSON_DEPTH = 32;

export const NESTED_TOO_DEEP = `body: nested deeper than ${MAX_JSON_DEPTH} levels`;

type ParserDone = (error: Error | null, body?: unknown) => void;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/**
 * Whether the JSON text nests arrays and objects deeper than `max`. One pass
 * over the bytes, without parsing and without recursion, so any body the size
 * limit lets through is measured in linear time. Brackets inside strings do not
 * count; UTF-8 never uses these byte values inside a multi-byte character.
 */
export function nestsDeeperThan(json: Buffer | string, max: number): boolean {
  const bytes = typeof json === 'string' ? Buffer.from(json) : json;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (OPEN.has(byte)) {
      if (++depth > max) return true;
    } else if (CLOSE.has(byte)) {
      depth--;
    }
  }
  return false;
}

/**
 * Fastify's own JSON parser (prototype poisoning refused), behind the depth
 * bound: a body nested deeper than MAX_JSON_DEPTH is a 400 before it is parsed.
 */
export function depthBoundedJsonParser(fastify: FastifyInstance) {
  // secure-json-parse takes the bytes as they are (a Buffer, as Nest's body parsers read them).
  const parse = fastify.getDefaultJsonParser('error', 'error') as unknown as (request: FastifyRequest, body: Buffer, done: ParserDone) => void;
  return (request: FastifyRequest, body: Buffer, done: ParserDone): void => {
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) done(new BadRequestException(NESTED_TOO_DEEP), undefined);
    else parse(request, body, done);
  };
}
