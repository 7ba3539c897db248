import { createObservability, type Observability } from '@vault/platform';
import type { VaultConfig } from './vault-config.js';

/**
 * A process's metrics and tracer, as its configuration asks. Metrics are on
 * when VAULT_METRICS is (the default) and the process has somewhere to serve
 * them: a service's health port always, the gateway and the embedded vault
 * only with METRICS_PORT. Spans are exported only with
 * OTEL_EXPORTER_OTLP_ENDPOINT; trace ids are made either way.
 */
export function processObservability(config: VaultConfig, service: string, servesMetrics: boolean): Promise<Observability> {
  return createObservability({
    service,
    metrics: config.VAULT_METRICS && servesMetrics,
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    otlpScheduleDelayMs: config.OTEL_BSP_SCHEDULE_DELAY,
  });
}
