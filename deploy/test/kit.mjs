// What every deploy test uses: helm and the API-type validator (built from
// their Go modules on first use by scripts/tools/*.sh, cached in
// ~/.cache/vault/tools), the chart rendered and parsed, and lookups in what
// it rendered. The tests themselves are the *.test.mjs files beside this one,
// run by `node --test deploy/test/` (npm test's deploy tier).
import assertOk from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const chart = join(root, 'deploy/helm');
export const RELEASE = 'vault';
export const NAMESPACE = 'vault';
export { DISTRIBUTED_APPS as APPS, SERVICE_NAMES as SERVICES, databaseVariableOf } from '../../scripts/lib/services.mjs';

export function run(command, args, input) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A tool built from its Go module by its script (minutes the first time, then cached); a failed build fails the test file. */
function tool(script) {
  const built = spawnSync('bash', [script], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (built.status !== 0) throw new Error(`${script} failed; the deploy tests need it`);
  return built.stdout.trim();
}
export const helm = tool('scripts/tools/helm.sh');
export const validator = tool('scripts/tools/validate-manifests.sh');

export const assert = (condition, message) => assertOk.ok(condition, message);
/** Equal as JSON (key order counts, undefined members do not), saying what differs. */
export function equal(actual, expected, what) {
  assert(JSON.stringify(actual) === JSON.stringify(expected), `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

export const template = (args) => run(helm, ['template', RELEASE, chart, '--namespace', NAMESPACE, ...args]);
export const parse = (manifest) =>
  parseAllDocuments(manifest)
    .map((d) => d.toJS())
    .filter((o) => o && typeof o === 'object');
export const named = (objects, kind, name) => objects.find((o) => o.kind === kind && o.metadata?.name === name);
export const fullname = (component) => `${RELEASE}-${component}`; // the release is named "vault": the chart does not repeat it
export const podSpecOf = (o) => (o.kind === 'CronJob' ? o.spec.jobTemplate.spec.template.spec : o.spec?.template?.spec);
export const containersOf = (o) => [...(podSpecOf(o).initContainers ?? []), ...podSpecOf(o).containers];
export const envOf = (container) => Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));

export function validate(manifest, what) {
  const result = run(validator, ['-'], manifest);
  const summary = result.stdout.trim().split('\n').pop();
  const invalid = result.stdout.split('\n').filter((l) => l.startsWith('INVALID'));
  assert(result.status === 0, `validate-manifests refused ${what}:\n${invalid.join('\n') || result.stderr}`);
  return summary;
}

/** helm template with these arguments, which must render, validated against the API types, as objects. */
export function render(args, what = args.join(' ')) {
  const result = template(args);
  assert(result.status === 0, result.stderr);
  validate(result.stdout, what);
  return parse(result.stdout);
}
