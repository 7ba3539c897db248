import { ROOT_CONTEXT, SpanKind as OtelSpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SpanKind, Tracer } from './tracer.js';

const KINDS: Record<SpanKind, OtelSpanKind> = {
  server: OtelSpanKind.SERVER,
  client: OtelSpanKind.CLIENT,
  producer: OtelSpanKind.PRODUCER,
  consumer: OtelSpanKind.CONSUMER,
  internal: OtelSpanKind.INTERNAL,
};

export interface OtlpOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to its /v1/traces, as OTLP/HTTP JSON. */
  endpoint: string;
  /** How long spans wait in the batch before they are sent (OTEL_BSP_SCHEDULE_DELAY). */
  scheduleDelayMs: number;
}

/**
 * The tracer when an OTLP endpoint is configured: OpenTelemetry's SDK, loaded
 * only then (this module is reached through import()). The parent of a span
 * is always given explicitly, from the vault's own request context, so no
 * global context manager or instrumentation is installed.
 */
export function otlpTracer(serviceName: string, options: OtlpOptions): Tracer {
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: options.scheduleDelayMs })],
  });
  const tracer = provider.getTracer('vault');
  return {
    start(name, kind, parent, attributes) {
      const parentContext = parent
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId: parent.traceId,
            spanId: parent.spanId,
            traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
            isRemote: true,
          })
        : ROOT_CONTEXT;
      const span = tracer.startSpan(name, { kind: KINDS[kind], attributes }, parentContext);
      const { traceId, spanId, traceFlags } = span.spanContext();
      return {
        context: { traceId, spanId, sampled: (traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED },
        end(result) {
          if (result?.name) span.updateName(result.name);
          if (result?.attributes) span.setAttributes(result.attributes);
          if (result?.failed) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    close: () => provider.shutdown(),
  };
}
