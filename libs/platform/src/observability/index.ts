export * from './trace-context.js';
export * from './tracer.js';
export * from './metric-families.js';
export * from './observability.js';
// Types only: prom-client and OpenTelemetry's SDK are loaded by createObservability, when switched on.
export type { PoolCounts, ReadinessProbe, VaultMetrics } from './vault-metrics.js';
