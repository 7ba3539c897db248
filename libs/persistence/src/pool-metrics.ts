import type { VaultMetrics } from '@vault/platform';
import type pg from 'pg';

type Query = (...args: unknown[]) => unknown;

/**
 * The pool in the process's metrics: its connections (open, idle) and the
 * queries waiting for one at each scrape, and every query's time. The time
 * is taken on each connection's own `query` (the pool's goes through it, as
 * do transactions), with no label but its outcome: SQL text stays out.
 */
export function measurePool(pool: pg.Pool, metrics: VaultMetrics): void {
  metrics.watchPool(pool);
  pool.on('connect', (client) => timeQueries(client, metrics));
}

function timeQueries(client: pg.PoolClient, metrics: VaultMetrics): void {
  const query = client.query.bind(client) as Query;
  const timed: Query = (...args) => {
    const started = performance.now();
    const done = (failed: boolean) => metrics.dbQueries.observe({ outcome: failed ? 'error' : 'ok' }, (performance.now() - started) / 1000);
    const last = args.length - 1;
    // The pool's own query() calls its connection's with a callback; drizzle awaits the promise.
    if (typeof args[last] === 'function') {
      const callback = args[last] as (error: unknown, ...results: unknown[]) => void;
      args[last] = (error: unknown, ...results: unknown[]) => {
        done(Boolean(error));
        callback(error, ...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise)
      result.then(
        () => done(false),
        () => done(true),
      );
    return result;
  };
  (client as unknown as { query: Query }).query = timed;
}
