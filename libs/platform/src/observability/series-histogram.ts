import type { Metric, Registry } from 'prom-client';

/** One label set's counts: how many observations fell in each bucket (not cumulative), their sum and count. */
interface Series {
  readonly labels: Readonly<Record<string, string>>;
  readonly bucketCounts: number[];
  sum: number;
  count: number;
}

/** A level of the label tree: the next label's values, and at the last level the series. */
interface LabelNode {
  readonly next: Map<string, LabelNode>;
  series?: Series;
}

/**
 * A sample as prom-client's own histograms hand it to the registry: `le` in
 * `labels`, the series' labels in `sharedLabels` (the same object at every
 * scrape, which the registry formats once and keeps), so that the exposition
 * is written exactly as for prom-client's Histogram.
 */
interface ExportedValue {
  readonly metricName: string;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly sharedLabels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface SeriesHistogramOptions<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  /** Upper bounds, ascending; +Inf is added. */
  readonly buckets: readonly number[];
  readonly registry: Registry;
}

/**
 * A Prometheus histogram for the hot path. An observation walks one map per
 * label to its series and adds to one bucket, allocating nothing once the
 * label set has been seen. prom-client's Histogram builds, validates and
 * joins a labels object on every observe; in the distributed stack that was
 * 11-14 µs of every request in planner-svc and the gateway, more than the
 * rest of the instrumentation (docs/performance.md, "Metrics on"). The
 * registry, the exposition format and the default labels stay prom-client's:
 * it writes the text from getForPromString() and the JSON from get(), as it
 * does for its own histograms (a test compares the two texts byte for byte).
 */
export class SeriesHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly labelNames: readonly L[];
  private readonly upperBounds: readonly number[];
  private root: LabelNode = { next: new Map() };
  /** Every series, in the order first seen, for the exposition. */
  private series: Series[] = [];

  constructor(options: SeriesHistogramOptions<L>) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    this.upperBounds = [...options.buckets].sort((a, b) => a - b);
    // The registry takes any object of this shape; its type names only prom-client's own classes.
    options.registry.registerMetric(this as unknown as Metric);
  }

  observe(labels: Readonly<Record<L, string>>, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`${this.name}: not a finite number: ${value}`);
    const series = this.seriesOf(labels);
    series.sum += value;
    series.count += 1;
    // A loop, not findIndex: no closure per observation. Above the last bound, only +Inf (the count) holds it.
    for (let i = 0; i < this.upperBounds.length; i++) {
      if (value <= this.upperBounds[i]) {
        series.bucketCounts[i] += 1;
        break;
      }
    }
  }

  /** Read by the registry for the exposition text: the cumulative buckets, +Inf, _sum and _count of every series. */
  getForPromString(): { name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: ExportedValue[] } {
    const values: ExportedValue[] = [];
    for (const series of this.series) {
      const sharedLabels = series.labels;
      let cumulative = 0;
      this.upperBounds.forEach((bound, i) => {
        cumulative += series.bucketCounts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { le: bound }, sharedLabels, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf' }, sharedLabels, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: {}, sharedLabels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: {}, sharedLabels, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Read by the registry for JSON: the same samples with each one's labels in one object. */
  get(): {
    name: string;
    help: string;
    type: 'histogram';
    aggregator: 'sum';
    values: { metricName: string; labels: Record<string, string | number>; value: number }[];
  } {
    const exported = this.getForPromString();
    return {
      ...exported,
      values: exported.values.map(({ metricName, labels, sharedLabels, value }) => ({ metricName, labels: { ...labels, ...sharedLabels }, value })),
    };
  }

  reset(): void {
    this.root = { next: new Map() };
    this.series = [];
  }

  private seriesOf(labels: Readonly<Record<L, string>>): Series {
    let node = this.root;
    for (const name of this.labelNames) {
      const value = labels[name];
      let child = node.next.get(value);
      if (!child) {
        if (typeof value !== 'string') throw new TypeError(`${this.name}: label "${name}" must be a string`);
        child = { next: new Map() };
        node.next.set(value, child);
      }
      node = child;
    }
    if (!node.series) {
      node.series = { labels: this.copyOf(labels), bucketCounts: this.upperBounds.map(() => 0), sum: 0, count: 0 };
      this.series.push(node.series);
    }
    return node.series;
  }

  /** Only the declared labels, so that an object with more keys does not leak them into the exposition. */
  private copyOf(labels: Readonly<Record<L, string>>): Record<string, string> {
    return Object.fromEntries(this.labelNames.map((name) => [name, labels[name]]));
  }
}
