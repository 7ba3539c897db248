import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import { SeriesHistogram } from './series-histogram.js';

const require = createRequire(import.meta.url);

/** A collector of prom-client's default metrics: each file of its lib/metrics is one, named in `metricsList`. */
type DefaultCollector = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void;

/** prom-client's names for V8's kinds of collection, so that nodejs_gc_duration_seconds keeps its meaning. */
const GC_KINDS: Readonly<Record<string, string>> = {
  Scavenge: 'minor',
  MinorMarkSweep: 'minor',
  MinorMarkCompact: 'minor',
  MarkSweepCompact: 'major',
  IncrementalMarking: 'incremental',
  ProcessWeakCallbacks: 'weakcb',
};
/** prom-client's buckets for GC durations, in seconds. */
const GC_BUCKETS = [0.001, 0.01, 0.1, 1, 2, 5];
/** How often the GC profiler is drained between scrapes: it keeps about 3 KB per collection until then. */
const GC_DRAIN_INTERVAL_MS = 2000;

/**
 * The Node runtime's metrics: event-loop delay, heap, CPU, handles (prom-client's
 * default collectors) and GC durations.
 *
 * The GC durations do not come from prom-client's collector: it observes
 * every collection through a PerformanceObserver, and Node then builds a
 * performance entry and calls into JavaScript for each one, about 65 µs per
 * collection here, which in the distributed stack was 13 µs of every request
 * (docs/performance.md). V8's GCProfiler records the collections in C++ and
 * hands them over as one list when drained: at each scrape and every 2 s.
 */
export function collectRuntimeMetrics(registry: Registry): void {
  const config = { eventLoopMonitoringPrecision: 10 };
  for (const name of collectDefaultMetrics.metricsList) {
    if (name !== 'gc') (require(`prom-client/lib/metrics/${name}`) as DefaultCollector)(registry, config);
  }
  collectGcDurations(registry);
}

function collectGcDurations(registry: Registry): void {
  const profiler = new v8.GCProfiler();
  profiler.start();
  const drain = () => {
    const collections = profiler.stop().statistics;
    profiler.start();
    for (const { gcType, cost } of collections) durations.observe({ kind: GC_KINDS[gcType] ?? 'other' }, cost / 1e6);
  };
  const durations = new SeriesHistogram({
    name: 'nodejs_gc_duration_seconds',
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'],
    buckets: GC_BUCKETS,
    registry,
    collect: drain,
  });
  setInterval(drain, GC_DRAIN_INTERVAL_MS).unref();
}
