// What the deploy tier checks of the vault's metrics outside the code: the
// alert rules of the chart's PrometheusRule and the Grafana dashboard
// (deploy/grafana). Each PromQL expression is parsed with Prometheus's own
// grammar (@prometheus-io/lezer-promql, the one its web UI uses), and every
// metric it names must be one the code exports: the series of the built
// VaultMetrics registry (libs/platform), Node's runtime families included.
import { parser } from '@prometheus-io/lezer-promql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Grafana's variables, replaced by values of their kind before an expression is parsed. */
const GRAFANA_VARIABLES = [
  [/\$__rate_interval|\$__interval|\$__range/g, '5m'],
  [/\$\{?service\}?/g, 'gateway'],
];

/**
 * Every series name the code exports, from the built registry itself:
 * a histogram's family is scraped as its _bucket, _sum and _count series.
 */
export async function exportedSeries(root) {
  const { VaultMetrics } = await import(pathToFileURL(join(root, 'libs/platform/dist/observability/vault-metrics.js')).href);
  const metrics = new VaultMetrics('deploy-check');
  const names = new Set();
  for (const family of await metrics.registry.getMetricsAsJSON()) {
    if (family.type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(family.name + suffix);
    else if (family.type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(family.name + suffix);
    else names.add(family.name);
  }
  metrics.registry.clear();
  return names;
}

/** The problems of one PromQL expression: a syntax error, or a metric the code does not export. */
export function promqlProblems(expression, exported) {
  let query = expression;
  for (const [variable, value] of GRAFANA_VARIABLES) query = query.replace(variable, value);
  const problems = [];
  const metrics = [];
  parser.parse(query).iterate({
    enter(node) {
      if (node.type.isError) problems.push(`syntax error at ${node.from}: ...${query.slice(Math.max(0, node.from - 20), node.from + 20)}...`);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') metrics.push(query.slice(node.from, node.to));
    },
  });
  if (metrics.length === 0) problems.push('names no metric');
  for (const name of metrics) if (!exported.has(name)) problems.push(`${name} is not a metric the vault exports`);
  return problems;
}

/** The rules of a rendered PrometheusRule: each alert's name and expression. */
export function alertRules(prometheusRule) {
  return prometheusRule.spec.groups.flatMap((group) => group.rules.map((rule) => ({ name: rule.alert ?? rule.record, expr: String(rule.expr), rule })));
}

/** The dashboard's problems: not JSON, no panels, a panel without targets, a target whose expression fails. */
export function dashboardProblems(file, exported) {
  let dashboard;
  try {
    dashboard = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return [`not JSON: ${error.message}`];
  }
  const problems = [];
  if (typeof dashboard.title !== 'string' || !dashboard.uid) problems.push('no title or uid');
  const panels = (dashboard.panels ?? []).flatMap((panel) => (panel.type === 'row' ? (panel.panels ?? []) : [panel]));
  if (panels.length === 0) problems.push('no panels');
  const ids = new Set();
  for (const panel of panels) {
    const where = `panel ${panel.id} "${panel.title}"`;
    if (ids.has(panel.id)) problems.push(`${where}: its id is used twice`);
    ids.add(panel.id);
    if (!panel.gridPos || !panel.datasource) problems.push(`${where}: no gridPos or datasource`);
    if (!Array.isArray(panel.targets) || panel.targets.length === 0) problems.push(`${where}: no targets`);
    for (const target of panel.targets ?? []) {
      if (typeof target.expr !== 'string') problems.push(`${where} ${target.refId}: no expression`);
      else for (const problem of promqlProblems(target.expr, exported)) problems.push(`${where} ${target.refId}: ${problem}`);
    }
  }
  return problems;
}

/** The objects of the Prometheus Operator's kinds, which the Kubernetes API types do not know. */
export const isOperatorObject = (object) => String(object.apiVersion).startsWith('monitoring.coreos.com/');
