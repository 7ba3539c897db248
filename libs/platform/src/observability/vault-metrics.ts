import { Counter, Gauge, Registry } from 'prom-client';
import { METRIC } from './metric-families.js';
import { collectRuntimeMetrics } from './runtime-metrics.js';
import { SeriesHistogram } from './series-histogram.js';

/** Seconds: an answer from the cache of a service takes a few ms, RPC_TIMEOUT_MS is 1.5 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** A readiness check that does not answer within this is counted as failing, as /health/ready does. */
const READINESS_DEADLINE_MS = 2000;

/** What a node-postgres Pool tells about itself. */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** Something a process needs before it can serve (the shape of the health module's checks). */
export interface ReadinessProbe {
  readonly name: string;
  check(): Promise<void>;
}

/**
 * The Prometheus metrics of one process (prom-client), in a registry of its
 * own: a test runs several apps in one Node process, and each must count only
 * its own work. Labels are patterns and names the code chooses (route
 * patterns, RPC patterns, event names), never what a request carries.
 * Every series has the `service` label: gateway, planner-svc, vault...
 */
export class VaultMetrics {
  readonly registry = new Registry();

  /** At the gateway, per route pattern (`/api/targets/:id`), method and status; its _count is the request rate. */
  readonly httpRequests = this.histogram(
    METRIC.httpRequestDuration,
    'HTTP requests answered by the gateway, by route pattern, method and status, and how long they took.',
    ['route', 'method', 'status'],
    LATENCY_BUCKETS,
  );
  readonly rpcClient = this.histogram(
    METRIC.rpcClientDuration,
    'RPC calls made by the gateway, by pattern and outcome (ok, refused, failed, unavailable), and how long each waited for its answer.',
    ['pattern', 'outcome'],
    LATENCY_BUCKETS,
  );
  readonly rpcServer = this.histogram(
    METRIC.rpcServerDuration,
    'RPC calls handled by this service, by pattern and outcome (ok, refused, failed), and how long each took.',
    ['pattern', 'outcome'],
    LATENCY_BUCKETS,
  );
  readonly dbQueries = this.histogram(
    METRIC.dbQueryDuration,
    'Database queries of this process, by outcome (ok, error), and how long each took.',
    ['outcome'],
    QUERY_BUCKETS,
  );

  readonly eventsPublished = this.counter(
    METRIC.eventsPublished,
    'Events published, by event and outcome (ok: stored by the broker; failed: given up after the retries).',
    ['event', 'outcome'],
  );
  readonly eventsDelivered = this.counter(
    METRIC.eventsDelivered,
    'Event deliveries to a consumer of this process, redeliveries included, by event and consumer.',
    ['event', 'consumer'],
  );
  readonly eventsRedelivered = this.counter(
    METRIC.eventsRedelivered,
    'Deliveries of an event this consumer had received before and not acknowledged, by event and consumer.',
    ['event', 'consumer'],
  );
  readonly eventsAcknowledged = this.counter(METRIC.eventsAcknowledged, 'Events a consumer of this process handled and acknowledged, by event and consumer.', [
    'event',
    'consumer',
  ]);
  readonly eventHandlerFailures = this.counter(
    METRIC.eventHandlerFailures,
    'Deliveries whose handler failed (the event is delivered again later), by event and consumer.',
    ['event', 'consumer'],
  );

  readonly natsConnected = new Gauge({
    name: METRIC.natsConnected,
    help: 'Whether a NATS connection of this process is up (1) or not (0), by connection (rpc, events).',
    labelNames: ['connection'] as const,
    registers: [this.registry],
  });
  readonly natsReconnects = this.counter(METRIC.natsReconnects, 'Reconnections of a NATS connection of this process after it was lost, by connection.', [
    'connection',
  ]);
  readonly natsDisconnects = this.counter(METRIC.natsDisconnects, 'Losses of a NATS connection of this process, by connection.', ['connection']);

  private readonly pools = new Set<PoolCounts>();
  private readonly readinessProbes: ReadinessProbe[] = [];

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    // The Node runtime: event-loop delay, heap, GC, CPU, handles.
    collectRuntimeMetrics(this.registry);
    const pools = this.pools;
    new Gauge({
      name: METRIC.dbPoolConnections,
      help: 'Connections of the database pool, by state: open (idle or in use) and idle.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        if (pools.size === 0) return;
        this.set(
          { state: 'open' },
          sum(pools, (pool) => pool.totalCount),
        );
        this.set(
          { state: 'idle' },
          sum(pools, (pool) => pool.idleCount),
        );
      },
    });
    new Gauge({
      name: METRIC.dbPoolWaiting,
      help: 'Queries waiting for a connection of the database pool.',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        if (pools.size > 0)
          this.set(
            { pool: 'main' },
            sum(pools, (pool) => pool.waitingCount),
          );
      },
    });
    const probes = this.readinessProbes;
    new Gauge({
      name: METRIC.readiness,
      help: 'Whether each thing this process needs answers (1) or not (0), checked at each scrape as /health/ready does.',
      labelNames: ['check'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const results = await Promise.all(probes.map(async (probe) => [probe.name, await answers(probe)] as const));
        for (const [check, up] of results) this.set({ check }, up ? 1 : 0);
      },
    });
  }

  /** Counts the pool's connections at each scrape. */
  watchPool(pool: PoolCounts): void {
    this.pools.add(pool);
  }

  /** Checks these at each scrape (vault_readiness), so that an alert sees a process that is up but not ready. */
  watchReadiness(probes: readonly ReadinessProbe[]): void {
    this.readinessProbes.push(...probes);
  }

  private counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): SeriesHistogram<L> {
    return new SeriesHistogram({ name, help, labelNames, buckets, registry: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text of every family. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

function sum(pools: Set<PoolCounts>, count: (pool: PoolCounts) => number): number {
  let total = 0;
  for (const pool of pools) total += count(pool);
  return total;
}

async function answers(probe: ReadinessProbe): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READINESS_DEADLINE_MS)));
  try {
    return await Promise.race([
      probe.check().then(
        () => true,
        () => false,
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
