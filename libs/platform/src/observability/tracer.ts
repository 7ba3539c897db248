import { newSpanId, newTraceId, type TraceContext } from './trace-context.js';

export type SpanKind = 'server' | 'client' | 'producer' | 'consumer' | 'internal';

/**
 * What a span may say about its work: a route pattern, an RPC pattern, an
 * event name, a status. Never a title, a content, an address or a session:
 * spans leave the vault for the operator's collector.
 */
export type SpanAttributes = Record<string, string | number | boolean>;

export interface SpanHandle {
  readonly context: TraceContext;
  /** `name` renames the span once its work is known (an HTTP span, by the route that answered). */
  end(result?: { failed?: boolean; attributes?: SpanAttributes; name?: string }): void;
}

/** Starts spans; a span without a parent starts a new trace. */
export interface Tracer {
  start(name: string, kind: SpanKind, parent: TraceContext | undefined, attributes?: SpanAttributes): SpanHandle;
  /** Sends what is still buffered; the process is stopping. */
  close(): Promise<void>;
}

/**
 * The tracer when no OTLP endpoint is configured: it only hands out ids, so
 * that every log line of a request still names its trace, and loads nothing
 * (the OpenTelemetry SDK costs start-up time and memory the embedded vault
 * does not have to spare).
 */
export const idOnlyTracer: Tracer = {
  start(_name, _kind, parent) {
    const context = { traceId: parent?.traceId ?? newTraceId(), spanId: newSpanId(), sampled: parent?.sampled ?? false };
    return { context, end: () => undefined };
  },
  close: async () => undefined,
};
