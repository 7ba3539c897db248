import { randomFillSync } from 'node:crypto';

/**
 * Where a piece of work sits in a trace (W3C Trace Context): the trace of the
 * HTTP request it serves and the span it runs in. Carried in the request's
 * context inside a process and as a `traceparent` header between processes.
 */
export interface TraceContext {
  /** 32 hex digits: the same in every process one request reaches. */
  traceId: string;
  /** 16 hex digits: this process's current span. */
  spanId: string;
  sampled: boolean;
}

/** The W3C header that carries a TraceContext between processes. */
export const TRACEPARENT = 'traceparent';

const TRACEPARENT_FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ALL_ZEROS = /^0+$/;

export function formatTraceparent(trace: TraceContext): string {
  return `00-${trace.traceId}-${trace.spanId}-${trace.sampled ? '01' : '00'}`;
}

/** The context a `traceparent` header names, or undefined when it is missing or malformed (never trusted blindly). */
export function parseTraceparent(header: string | undefined | null): TraceContext | undefined {
  const match = typeof header === 'string' ? TRACEPARENT_FORMAT.exec(header.trim()) : null;
  if (!match || ALL_ZEROS.test(match[1]) || ALL_ZEROS.test(match[2])) return undefined;
  return { traceId: match[1], spanId: match[2], sampled: (parseInt(match[3], 16) & 1) === 1 };
}

/**
 * Random ids, drawn from a buffer filled a few kilobytes at a time: a request
 * takes two or three ids, and a system call for each would cost more than the
 * rest of its tracing when nothing is exported.
 */
const pool = Buffer.alloc(4096);
let offset = pool.length;

function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  // An all-zero id is invalid in W3C Trace Context; with 64 random bits it is practically never drawn, but never sent.
  return ALL_ZEROS.test(hex) ? randomHex(bytes) : hex;
}

export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);
