import { describe, expect, it } from '@jest/globals';
import { Histogram, Registry } from 'prom-client';
import { collectRuntimeMetrics } from './runtime-metrics.js';
import { SeriesHistogram } from './series-histogram.js';

const BUCKETS = [0.005, 0.01, 0.1, 1];
const OBSERVATIONS: [Record<'route' | 'status', string>, number][] = [
  [{ route: '/api/targets', status: '200' }, 0.004],
  [{ route: '/api/targets', status: '200' }, 0.02],
  [{ route: '/api/targets', status: '201' }, 0.005],
  [{ route: '/api/journal', status: '200' }, 3],
  [{ route: '/api/targets', status: '200' }, 0.01],
  [{ route: 'a "quoted" \\ route\n', status: '500' }, 0.5],
];

function registryWithService(): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'gateway' });
  return registry;
}

describe('SeriesHistogram', () => {
  it("exports what prom-client's Histogram exports for the same observations, default labels and escaping included, byte for byte", async () => {
    const ours = registryWithService();
    const theirs = registryWithService();
    const series = new SeriesHistogram({ name: 'x_seconds', help: 'How long.', labelNames: ['route', 'status'], buckets: BUCKETS, registry: ours });
    const reference = new Histogram({ name: 'x_seconds', help: 'How long.', labelNames: ['route', 'status'], buckets: BUCKETS, registers: [theirs] });
    for (const [labels, value] of OBSERVATIONS) {
      series.observe(labels, value);
      reference.observe(labels, value);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('x_seconds_bucket{le="0.01",service="gateway",route="/api/targets",status="200"} 2');
    expect(text).toContain('x_seconds_count{service="gateway",route="/api/targets",status="200"} 3');
    // prom-client adds an empty `exemplar` to each value (exemplars are off in both).
    const withoutExemplars = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
      metrics.map(({ values, ...metric }) => ({
        ...metric,
        values: values.map((value) => Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'exemplar'))),
      }));
    expect(await ours.getMetricsAsJSON()).toEqual(withoutExemplars(await theirs.getMetricsAsJSON()));
  });

  it('writes the same text as prom-client with no default labels', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const series = new SeriesHistogram({ name: 'z_seconds', help: 'How long.', labelNames: ['route', 'status'], buckets: BUCKETS, registry: ours });
    const reference = new Histogram({ name: 'z_seconds', help: 'How long.', labelNames: ['route', 'status'], buckets: BUCKETS, registers: [theirs] });
    for (const [labels, value] of OBSERVATIONS) {
      series.observe(labels, value);
      reference.observe(labels, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('keeps only the declared labels, and refuses a value that is not a finite number or a label that is not a string', async () => {
    const registry = new Registry();
    const series = new SeriesHistogram({ name: 'y_seconds', help: 'How long.', labelNames: ['outcome'], buckets: BUCKETS, registry });
    series.observe({ outcome: 'ok', extra: 'secret' } as Record<'outcome', string>, 0.001);
    expect(() => series.observe({ outcome: 'ok' }, Number.NaN)).toThrow(TypeError);
    expect(() => series.observe({ outcome: 'ok' }, Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(() => series.observe({} as Record<'outcome', string>, 0.001)).toThrow('label "outcome" must be a string');
    const text = await registry.metrics();
    expect(text).not.toContain('secret');
    expect(text).toContain('y_seconds_count{outcome="ok"} 1');
    series.reset();
    expect(await registry.metrics()).not.toContain('y_seconds_count');
  });
});

describe('the runtime metrics', () => {
  it("export prom-client's default families, GC durations included", async () => {
    const registry = new Registry();
    collectRuntimeMetrics(registry);
    const text = await registry.metrics();
    for (const family of [
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_heap_space_size_used_bytes',
      'nodejs_version_info',
      'nodejs_active_handles_total',
    ])
      expect(text).toContain(`# TYPE ${family} `);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });
});
