import { describe, expect, it } from '@jest/globals';
import { OBSERVABILITY, type Observability } from '@vault/platform';
import { ApiClient } from '@vault/testing';
import { metricsUrlOf } from '../src/index.js';
import { scrape, sampleValue } from './metrics-scrape.js';
import { OWNER, embeddedVaultForBlock } from './stack.js';

/**
 * Issue 20, the embedded vault: the same metrics as the distributed mode, on
 * one endpoint of a port of its own bound to 127.0.0.1 (METRICS_PORT), and
 * none at all (prom-client not even loaded) unless that port is configured.
 */
describe('embedded vault with METRICS_PORT: the same metrics on 127.0.0.1, off the public port', () => {
  const started = embeddedVaultForBlock({ METRICS_PORT: '0' });

  it('counts a session on both sides of each in-process call, its events, its pool and its runtime', async () => {
    const vault = started();
    const url = metricsUrlOf(vault.app)!;
    expect(new URL(url).hostname).toBe('127.0.0.1');
    expect(new URL(url).port).not.toBe(new URL(vault.url).port);
    const owner = new ApiClient(vault.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
    for (const title of ['Embedded-Lynx-1', 'Embedded-Lynx-2']) expect((await owner.request('POST', '/api/targets', { title })).status).toBe(201);

    let metrics = await scrape(url);
    // Access events are handled after the request has moved on.
    const settled = () =>
      sampleValue(metrics, 'vault_events_acknowledged_total', { event: 'audit.access', consumer: 'vault' }) >=
      Math.max(1, sampleValue(metrics, 'vault_events_published_total', { event: 'audit.access' }));
    for (let i = 0; i < 50 && !settled(); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      metrics = await scrape(url);
    }
    expect(sampleValue(metrics, 'vault_http_request_duration_seconds_count', { route: '/api/targets', method: 'POST', status: '201' })).toBe(2);
    expect(sampleValue(metrics, 'vault_rpc_client_duration_seconds_count', { pattern: 'planner.targets.create', outcome: 'ok' })).toBe(2);
    expect(sampleValue(metrics, 'vault_rpc_server_duration_seconds_count', { pattern: 'planner.targets.create', outcome: 'ok' })).toBe(2);
    expect(sampleValue(metrics, 'vault_events_published_total', { event: 'audit.access', outcome: 'ok' })).toBe(
      sampleValue(metrics, 'vault_events_acknowledged_total', { event: 'audit.access', consumer: 'vault' }),
    );
    expect(sampleValue(metrics, 'vault_db_pool_connections', { state: 'open' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(metrics, 'vault_db_query_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(sampleValue(metrics, 'vault_readiness', { check: 'database' })).toBe(1);
    expect(sampleValue(metrics, 'nodejs_heap_size_used_bytes', { service: 'vault' })).toBeGreaterThan(0);
    for (const secret of ['Embedded-Lynx-1', OWNER.password, owner.address]) expect(metrics.text).not.toContain(secret);

    const publicAnswer = await fetch(`${vault.url}/metrics`);
    expect(await publicAnswer.text()).not.toContain('vault_http_request_duration_seconds');
  });
});

describe('embedded vault without METRICS_PORT (the default): no metrics', () => {
  const started = embeddedVaultForBlock();

  it('counts nothing and serves no metrics endpoint', async () => {
    const vault = started();
    expect(vault.app.get<Observability>(OBSERVABILITY).metrics).toBeUndefined();
    expect(metricsUrlOf(vault.app)).toBeUndefined();
    const owner = new ApiClient(vault.url);
    expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
    expect((await owner.request('POST', '/api/targets', { title: 'Unmeasured' })).status).toBe(201);
  });
});
