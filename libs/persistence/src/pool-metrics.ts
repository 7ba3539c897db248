import type { VaultMetrics } from '@vault/platform';
import type pg from 'pg';

type Query = (...args: unknown[]) => unknown;

/**
 * The pool in the process's metrics: its connections (open, idle) and the
 * queries waiting for one at each scrape, and every query's time, with no
 * label but its outcome: SQL text stays out.
 *
 * A query is timed where it is asked for with a promise: the pool's own
 * `query` (drizzle's reads and writes) and a checked-out connection's
 * (transactions). The pool passes each of its queries on to a connection
 * with a callback, which is left as it is: wrapping that callback, as this
 * did first, made a request cost 5 % more instructions (callgrind, `npm run
 * bench`'s metrics rows), most of it in V8's scavenger, which then found
 * three times as much to copy.
 */
export function measurePool(pool: pg.Pool, metrics: VaultMetrics): void {
  metrics.watchPool(pool);
  timePromisedQueries(pool, metrics);
  pool.on('connect', (client) => timePromisedQueries(client, metrics));
}

function timePromisedQueries(target: pg.Pool | pg.PoolClient, metrics: VaultMetrics): void {
  const query = target.query.bind(target) as Query;
  const timed: Query = (...args) => {
    const started = performance.now();
    const result = query(...args);
    // A callback instead: the pool's own call to a connection, timed at the pool already.
    if (!(result instanceof Promise)) return result;
    const done = (outcome: 'ok' | 'error') => metrics.dbQueries.observe({ outcome }, (performance.now() - started) / 1000);
    result.then(
      () => done('ok'),
      () => done('error'),
    );
    return result;
  };
  (target as unknown as { query: Query }).query = timed;
}
