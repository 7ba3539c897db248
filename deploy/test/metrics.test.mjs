// Metrics in the chart (issue 20): the ServiceMonitor, the alert rules, the
// dashboard, and metrics switched off.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { alertRules, dashboardProblems, exportedSeries, isOperatorObject, promqlProblems } from '../../scripts/lib/observability-checks.mjs';
import { checkMetrics, metricsPortOf } from './checks.mjs';
import { APPS, assert, envOf, equal, fullname, named, parse, root, template, validate } from './kit.mjs';

// What the code exports, from the built registry (npm test builds first).
const exported = await exportedSeries(root);
{
  const result = template([
    '-f',
    'deploy/helm/values-production.yaml',
    '--set',
    'metrics.serviceMonitor.enabled=true,metrics.prometheusRule.enabled=true,metrics.gatewayPort=9100',
  ]);
  test('metrics.serviceMonitor and metrics.prometheusRule: helm template', () => assert(result.status === 0, result.stderr));
  const objects = result.status === 0 ? parse(result.stdout) : [];
  test('with the ServiceMonitor: every object of the Kubernetes API valid, the scrape port moved with metrics.gatewayPort', () => {
    const kubernetes = objects.filter((o) => !isOperatorObject(o));
    validate(kubernetes.map((o) => stringify(o)).join('---\n'), 'the chart with the ServiceMonitor and PrometheusRule');
    checkMetrics(objects, 9100);
  });
  test('ServiceMonitor: one headless Service per app naming only its metrics port, all selected', () => {
    const monitor = objects.find((o) => o.kind === 'ServiceMonitor');
    assert(monitor, 'no ServiceMonitor');
    equal(monitor.spec.endpoints, [{ port: 'metrics', path: '/metrics', interval: '30s' }], 'endpoints');
    const selected = objects.filter(
      (o) => o.kind === 'Service' && Object.entries(monitor.spec.selector.matchLabels).every(([k, v]) => o.metadata.labels?.[k] === v),
    );
    equal(selected.map((o) => o.metadata.name).sort(), APPS.map((app) => fullname(`${app}-metrics`)).sort(), 'Services the ServiceMonitor selects');
    for (const app of APPS) {
      const service = named(objects, 'Service', fullname(`${app}-metrics`));
      equal(service.spec.clusterIP, 'None', `${app} metrics Service is headless`);
      equal(service.spec.selector, named(objects, 'Deployment', fullname(app)).spec.selector.matchLabels, `${app} metrics Service selector`);
      const port = metricsPortOf(objects, app, 9100);
      equal(service.spec.ports, [{ name: 'metrics', port, targetPort: port, protocol: 'TCP' }], `${app} metrics Service ports`);
    }
  });
  test('PrometheusRule: the alerts that matter, each expression valid PromQL on metrics the vault exports', () => {
    const rule = objects.find((o) => o.kind === 'PrometheusRule');
    assert(rule, 'no PrometheusRule');
    const rules = alertRules(rule);
    equal(
      rules.map((r) => r.name),
      ['VaultServiceNotReady', 'VaultRpcErrors', 'VaultEventRedeliveries', 'VaultBrokerDisconnected', 'VaultGatewayErrors'],
      'alerts',
    );
    for (const r of rules) {
      equal(promqlProblems(r.expr, exported), [], `${r.name} expression`);
      assert(
        /^\d+[smh]$/.test(r.rule.for ?? '') && ['warning', 'critical'].includes(r.rule.labels?.severity) && r.rule.annotations?.summary,
        `${r.name}: a for, a severity and a summary`,
      );
    }
  });
}
test('the PromQL check refuses a syntax error and a metric the vault does not export (the check works)', () => {
  assert(
    promqlProblems('sum(rate(vault_nats_reconnects_total[5m])', exported).some((p) => p.startsWith('syntax error')),
    'a missing parenthesis passed',
  );
  equal(promqlProblems('rate(vault_http_requests_total[5m])', exported), ['vault_http_requests_total is not a metric the vault exports'], 'an unknown metric');
  equal(
    promqlProblems('histogram_quantile(0.95, sum by (le) (rate(vault_rpc_server_duration_seconds_bucket[$__rate_interval])))', exported),
    [],
    'a valid expression',
  );
});
test('deploy/grafana/vault-dashboard.json: JSON, panels with targets, each expression valid PromQL on exported metrics', () =>
  equal(dashboardProblems(join(root, 'deploy/grafana/vault-dashboard.json'), exported), [], 'dashboard problems'));
test('the dashboard shows every vault_ family the code exports', () => {
  const dashboard = readFileSync(join(root, 'deploy/grafana/vault-dashboard.json'), 'utf8');
  const families = [...new Set([...exported].filter((n) => n.startsWith('vault_')).map((n) => n.replace(/_(bucket|sum|count)$/, '')))];
  equal(
    families.filter((family) => !dashboard.includes(family)),
    [],
    'families missing from the dashboard',
  );
});
test('metrics.enabled=false: VAULT_METRICS=false in every app, no annotations, no metrics port or policy', () => {
  const result = template(['-f', 'deploy/helm/values-production.yaml', '--set', 'metrics.enabled=false']);
  assert(result.status === 0, result.stderr);
  const objects = parse(result.stdout);
  for (const app of APPS) {
    const deployment = named(objects, 'Deployment', fullname(app));
    equal(envOf(deployment.spec.template.spec.containers[0]).VAULT_METRICS, 'false', `${app} VAULT_METRICS`);
    equal(deployment.spec.template.metadata.annotations['prometheus.io/scrape'], undefined, `${app} scrape annotation`);
    assert(!named(objects, 'NetworkPolicy', fullname(`${app}-metrics`)), `${app}: a metrics NetworkPolicy`);
  }
  equal(
    named(objects, 'Deployment', fullname('gateway')).spec.template.spec.containers[0].ports.map((p) => p.name),
    ['http'],
    'gateway ports',
  );
});
