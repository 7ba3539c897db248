// The API-server checks: the chart against a real kube-apiserver (and etcd),
// no node needed, so they fit every CI run.
//
//   1. every worked values file (deploy/helm/values-*.yaml and this tier's
//      deploy/test/cluster/values.yaml), rendered and sent as a server-side dry run:
//      admission, defaulting and validation as a cluster does them, with Pod
//      Security "restricted" warnings counted as failures
//   2. the trial values installed, upgraded (the generated Secret kept) and
//      uninstalled (everything gone but the Secret the chart keeps)
//
// The namespace allows no pods at all (a ResourceQuota of 0), so that even
// with a node nothing of the trial is ever pulled or run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const API_NAMESPACE = 'vault-api';

/** A Namespace whose pods must meet Pod Security "restricted" (warned of too, so that a dry run says why). */
export const restrictedNamespace = (name) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' } },
});

export function workedValuesFiles(root) {
  const chartDir = join(root, 'deploy/helm');
  return [
    ...readdirSync(chartDir)
      .filter((f) => /^values-.+\.ya?ml$/.test(f))
      .sort()
      .map((f) => join('deploy/helm', f)),
    'deploy/test/cluster/values.yaml',
  ];
}

/** `check(name, fn)` records each; `helm(args)` and `kubectl(args, {input})` run against the cluster. */
export async function apiChecks({ root, check, helm, kubectl }) {
  const ns = API_NAMESPACE;
  kubectl(['apply', '-f', '-'], {
    input: JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        restrictedNamespace(ns),
        { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'no-pods', namespace: ns }, spec: { hard: { pods: '0' } } },
      ],
    }),
  });

  for (const file of workedValuesFiles(root)) {
    await check(`server-side dry run of ${file}: every object admitted, no Pod Security warning`, () => {
      // A registry for the files that leave it to the installer.
      const rendered = helm(['template', 'vault', 'deploy/helm', '-n', ns, '-f', file, '--set', 'image.registry=localhost']);
      const applied = kubectl(['apply', '--dry-run=server', '-n', ns, '-f', '-'], { input: rendered.stdout, allowFail: true });
      if (applied.status !== 0) throw new Error(applied.stderr.trim());
      const warnings = applied.stderr.split('\n').filter((l) => /^Warning:/.test(l));
      if (warnings.length) throw new Error(warnings.join('\n'));
      const objects = applied.stdout
        .trim()
        .split('\n')
        .filter((l) => /\(server dry run\)/.test(l));
      return `${objects.length} objects`;
    });
  }

  const trial = ['-f', 'deploy/helm/values-trial.yaml', '--set', 'image.registry=localhost'];
  const trialSecret = () => kubectl(['get', 'secret', 'vault-trial', '-n', ns, '-o', 'jsonpath={.data}'], { allowFail: true }).stdout;
  let secretAtInstall = '';
  await check('trial values: helm install (API level)', () => {
    helm(['install', 'vault', 'deploy/helm', '-n', ns, ...trial, '--timeout', '2m']);
    const kinds = kubectl(['get', 'deployments,statefulsets,services,networkpolicies,configmaps', '-n', ns, '-o', 'name']).stdout.trim().split('\n');
    const count = (kind) => kinds.filter((k) => k.startsWith(`${kind}/`)).length;
    if (count('deployment.apps') !== 6) throw new Error(`expected 6 Deployments, found ${count('deployment.apps')}`);
    if (count('statefulset.apps') !== 4) throw new Error(`expected 4 StatefulSets (the trial's stores), found ${count('statefulset.apps')}`);
    secretAtInstall = trialSecret();
    if (!secretAtInstall.includes('VAULT_OWNER_PASSWORD')) throw new Error('the trial Secret was not generated');
    return `${kinds.length} objects, the trial Secret generated`;
  });
  await check('trial values: helm upgrade (a setting changed, the generated Secret kept)', () => {
    helm(['upgrade', 'vault', 'deploy/helm', '-n', ns, ...trial, '--set', 'config.logLevel=debug', '--timeout', '2m']);
    const level = kubectl(['get', 'configmap', 'vault-config', '-n', ns, '-o', 'jsonpath={.data.LOG_LEVEL}']).stdout;
    if (level !== 'debug') throw new Error(`LOG_LEVEL is ${level}`);
    if (trialSecret() !== secretAtInstall) throw new Error('the upgrade changed the trial Secret: the stores would lose their passwords');
    const revision = JSON.parse(helm(['status', 'vault', '-n', ns, '-o', 'json']).stdout).version;
    return `revision ${revision}`;
  });
  await check('trial values: helm uninstall (everything gone but the kept trial Secret)', () => {
    helm(['uninstall', 'vault', '-n', ns, '--wait', '--timeout', '2m']);
    const left = kubectl(['get', 'deployments,statefulsets,services,networkpolicies,configmaps,jobs,poddisruptionbudgets', '-n', ns, '-o', 'name'])
      .stdout.trim()
      .split('\n')
      .filter((l) => l && !l.endsWith('/kube-root-ca.crt'));
    if (left.length) throw new Error(`left behind: ${left.join(', ')}`);
    if (!trialSecret()) throw new Error("the trial Secret went with the release (it holds the stores' passwords)");
    return 'the trial Secret kept';
  });
  kubectl(['delete', 'namespace', ns, '--wait=false'], { allowFail: true });
}
