import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { requestContext } from '../request-context.js';
import type { TraceContext } from './trace-context.js';
import { idOnlyTracer, type Tracer } from './tracer.js';
import type { VaultMetrics } from './vault-metrics.js';

/** What one process measures and traces (injected as OBSERVABILITY). */
export interface Observability {
  /** Undefined when metrics are off: nothing is counted and prom-client is not even loaded. */
  readonly metrics?: VaultMetrics;
  readonly tracer: Tracer;
  close(): Promise<void>;
}

export const OBSERVABILITY = Symbol('OBSERVABILITY');

export interface ObservabilityOptions {
  /** The process's name: the `service` label of its metrics and the service.name of its spans. */
  service: string;
  metrics: boolean;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: spans are exported only when it is set. */
  otlpEndpoint?: string;
  otlpScheduleDelayMs?: number;
}

/**
 * Metrics and the tracer of a process. Each part is loaded only when it is
 * switched on (import()): prom-client when metrics are, OpenTelemetry's SDK
 * when an OTLP endpoint is configured. Otherwise trace ids are still made, by
 * idOnlyTracer, so every log line of a request names its trace.
 */
export async function createObservability(options: ObservabilityOptions): Promise<Observability> {
  const metrics = options.metrics ? new (await import('./vault-metrics.js')).VaultMetrics(options.service) : undefined;
  const tracer = options.otlpEndpoint
    ? (await import('./otlp-tracer.js')).otlpTracer(options.service, { endpoint: options.otlpEndpoint, scheduleDelayMs: options.otlpScheduleDelayMs ?? 5000 })
    : idOnlyTracer;
  return { metrics, tracer, close: () => tracer.close() };
}

/** Neither metrics nor export: what a process (or a test) without the module gets. */
export const NO_OBSERVABILITY: Observability = { tracer: idOnlyTracer, close: async () => undefined };

/** The trace the current request runs in, if any. */
export function currentTrace(): TraceContext | undefined {
  return requestContext.getStore()?.trace;
}

/** Runs `work` in the current request's context, with `trace` as its current span. */
export function withTrace<T>(trace: TraceContext, work: () => T): T {
  return requestContext.run({ ...requestContext.getStore(), trace }, work);
}

class ObservabilityCloser implements OnApplicationShutdown {
  constructor(@Inject(OBSERVABILITY) private readonly observability: Observability) {}
  /** The spans still in the batch are sent before the process goes. */
  async onApplicationShutdown() {
    await this.observability.close().catch(() => undefined);
  }
}

@Module({})
export class ObservabilityModule {
  static forRoot(observability: Observability): DynamicModule {
    return {
      module: ObservabilityModule,
      global: true,
      providers: [{ provide: OBSERVABILITY, useValue: observability }, ObservabilityCloser],
      exports: [OBSERVABILITY],
    };
  }
}
