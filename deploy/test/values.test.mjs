// The worked values files (production, trial): lint, template, every object
// valid against the Kubernetes API types, and what each must render.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkApps, checkEgressRules, checkMetrics, checkMigrationHook, checkNetworkPolicies, checkPodSecurity, peersOf, trialPeers } from './checks.mjs';
import {
  APPS,
  assert,
  chart,
  containersOf,
  databaseVariableOf,
  envOf,
  equal,
  fullname,
  helm,
  named,
  parse,
  podSpecOf,
  run,
  SERVICES,
  template,
  validate,
} from './kit.mjs';

const cases = [
  {
    file: 'values-production.yaml',
    registry: 'ghcr.io/acme',
    ownerPasswordVariable: 'VAULT_OWNER_PASSWORD_HASH',
    s3Port: 443,
    // nats://...:4222 and https://... as before; PostgreSQL and Redis (URLs in the Secret) from networkPolicy.egress.
    egress: { ports: { nats: [4222], postgres: [5432], redis: [6380], s3: [443] }, peers: peersOf('values-production.yaml') },
    extra: (objects) => {
      test('production: a pre-install/pre-upgrade migration Job per service image, before the services serve', () =>
        checkMigrationHook(objects, { databaseKeys: Object.fromEntries(SERVICES.map((s) => [s, databaseVariableOf(s)])) }));
      test('production: every secret from the existing Secret, none rendered by the chart', () => {
        assert(!objects.some((o) => o.kind === 'Secret'), 'the chart rendered a Secret');
        const names = new Set(
          objects
            .filter((o) => podSpecOf(o))
            .flatMap(containersOf)
            .flatMap((c) => (c.env ?? []).map((e) => e.valueFrom?.secretKeyRef?.name).filter(Boolean)),
        );
        equal([...names], ['vault-secrets'], 'Secrets referenced');
      });
      test('production: Ingress to the gateway with TLS, PodDisruptionBudget and HPA for the gateway', () => {
        const ingress = objects.find((o) => o.kind === 'Ingress');
        equal(ingress?.spec.rules[0].http.paths[0].backend.service, { name: fullname('gateway'), port: { name: 'http' } }, 'ingress backend');
        equal(ingress.spec.tls[0].hosts, ['vault.acme.example'], 'ingress TLS host');
        equal(objects.filter((o) => o.kind === 'Ingress').length, 1, 'only the gateway has an Ingress');
        const pdb = named(objects, 'PodDisruptionBudget', fullname('gateway'));
        equal(pdb?.spec.selector.matchLabels, named(objects, 'Deployment', fullname('gateway')).spec.selector.matchLabels, 'PDB selector');
        const hpa = named(objects, 'HorizontalPodAutoscaler', fullname('gateway'));
        equal(hpa?.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: fullname('gateway') }, 'HPA target');
        equal(named(objects, 'Deployment', fullname('gateway')).spec.replicas, undefined, 'an autoscaled gateway leaves replicas to the HPA');
      });
      test("production: a stopping gateway pod keeps serving for preStopSeconds (10) by the kubelet's own sleep, no program of the image, then has 30 s to finish; the services have no such wait", () => {
        const gateway = named(objects, 'Deployment', fullname('gateway')).spec.template.spec;
        equal(gateway.containers[0].lifecycle?.preStop, { sleep: { seconds: 10 } }, 'gateway preStop');
        equal(gateway.terminationGracePeriodSeconds, 10 + 30, 'gateway terminationGracePeriodSeconds');
        // The kubelet waits before the signal: the gateway itself must not wait again after it.
        equal(envOf(gateway.containers[0]).VAULT_STOP_DELAY_SECONDS, undefined, 'gateway VAULT_STOP_DELAY_SECONDS');
        for (const app of APPS.filter((a) => a !== 'gateway')) {
          const pod = named(objects, 'Deployment', fullname(app)).spec.template.spec;
          equal(pod.containers[0].lifecycle, undefined, `${app} lifecycle`);
          equal(pod.terminationGracePeriodSeconds, 30, `${app} terminationGracePeriodSeconds`);
        }
        // One replica per service here: a budget would block every drain.
        equal(
          objects.filter((o) => o.kind === 'PodDisruptionBudget').map((o) => o.metadata.name),
          [fullname('gateway')],
          'budgets with one replica per service',
        );
      });
      test('production: the gateway answers the ingress host only (VAULT_ALLOWED_HOSTS; 421 to any other Host)', () => {
        equal(named(objects, 'ConfigMap', fullname('config')).data.VAULT_ALLOWED_HOSTS, 'vault.acme.example', 'VAULT_ALLOWED_HOSTS');
      });
    },
  },
  {
    file: 'values-trial.yaml',
    registry: 'registry.example.com/vault',
    ownerPasswordVariable: 'VAULT_OWNER_PASSWORD',
    s3Port: 9000,
    // The trial's own stores, on their own ports.
    egress: { ports: { nats: [4222], postgres: [5432], redis: [6379], s3: [9000] }, peers: trialPeers },
    extra: (objects) => {
      test('trial: a database role per service (docs/adr/0008): each service its own URL key, the roles made in the PostgreSQL pod', () => {
        const secret = named(objects, 'Secret', fullname('trial'));
        const decoded = (key) => Buffer.from(secret.data[key] ?? '', 'base64').toString();
        assert(!('DATABASE_URL' in secret.data), 'the trial Secret holds no superuser DATABASE_URL');
        const roles = JSON.parse(decoded('VAULT_SERVICE_ROLES'));
        equal(
          roles.map((r) => [r.schema, r.role]),
          SERVICES.map((s) => [s, `vault_${s}`]),
          'VAULT_SERVICE_ROLES',
        );
        for (const s of SERVICES) {
          const url = new URL(decoded(databaseVariableOf(s)));
          equal([url.username, url.host, url.pathname], [`vault_${s}`, `${fullname('postgres')}:5432`, '/vault'], `${s} URL`);
          equal(decodeURIComponent(url.password), roles.find((r) => r.schema === s).password, `${s} URL password`);
          const env = envOf(named(objects, 'Deployment', fullname(`${s}-svc`)).spec.template.spec.containers[0]);
          equal(env.DATABASE_URL?.secretKeyRef, { name: fullname('trial'), key: databaseVariableOf(s) }, `${s}-svc DATABASE_URL`);
        }
        const provisioner = named(objects, 'StatefulSet', fullname('postgres')).spec.template.spec.containers.find((c) => c.name === 'service-roles');
        assert(provisioner, 'no service-roles container in the PostgreSQL pod');
        equal(Object.keys(envOf(provisioner)).sort(), ['PGPASSWORD', 'VAULT_SERVICE_ROLES'], 'service-roles env');
        assert(provisioner.readinessProbe, 'the PostgreSQL pod is ready only once the roles are made');
        assert(
          named(objects, 'ConfigMap', fullname('postgres-roles'))?.data['provision-service-roles.sql']?.includes('NOSUPERUSER NOCREATEDB NOCREATEROLE'),
          'the roles SQL',
        );
      });
      test('trial: PostgreSQL, NATS, Redis and MinIO as StatefulSets, secrets generated, services migrate at start', () => {
        for (const store of ['postgres', 'nats', 'redis', 'minio']) assert(named(objects, 'StatefulSet', fullname(store)), `no StatefulSet ${fullname(store)}`);
        const secret = named(objects, 'Secret', fullname('trial'));
        assert(secret, 'no generated trial Secret');
        equal(secret.metadata.annotations['helm.sh/resource-policy'], 'keep', 'the trial Secret (the master key) outlives an uninstall');
        const masterKey = Buffer.from(Buffer.from(secret.data.VAULT_MASTER_KEY, 'base64').toString(), 'base64');
        equal(masterKey.length, 32, 'generated VAULT_MASTER_KEY bytes');
        equal(objects.filter((o) => o.kind === 'Job').length, 0, 'migration Jobs in the trial');
        equal(named(objects, 'ConfigMap', fullname('config')).data.VAULT_SKIP_MIGRATIONS, 'false', 'VAULT_SKIP_MIGRATIONS');
        equal(named(objects, 'ConfigMap', fullname('config')).data.NATS_URL, `nats://${fullname('nats')}:4222`, 'NATS_URL');
        for (const store of ['postgres', 'nats', 'redis', 'minio']) {
          const policy = named(objects, 'NetworkPolicy', fullname(store));
          assert(policy?.spec.ingress?.[0]?.from?.[0]?.podSelector?.matchExpressions, `${store} accepts only its clients`);
        }
      });
      test('trial: no Ingress host, so the gateway keeps the loopback names kubectl port-forward uses (VAULT_ALLOWED_HOSTS unset)', () => {
        equal(named(objects, 'ConfigMap', fullname('config')).data.VAULT_ALLOWED_HOSTS, undefined, 'VAULT_ALLOWED_HOSTS');
      });
    },
  },
];

for (const c of cases) {
  const values = join('deploy/helm', c.file);
  test(`${c.file}: helm lint --strict`, () => {
    const lint = run(helm, ['lint', chart, '--strict', '-f', values]);
    assert(lint.status === 0, lint.stdout + lint.stderr);
  });
  const result = template(['-f', values]);
  test(`${c.file}: helm template`, () => assert(result.status === 0, result.stderr));
  if (result.status !== 0) continue;
  const objects = parse(result.stdout);
  test(`${c.file}: every object valid against the Kubernetes API types`, () => {
    const summary = validate(result.stdout, c.file);
    assert(
      summary.startsWith(`validated ${objects.length} objects`),
      `the validator saw other objects than the chart rendered (${objects.length}): ${summary}`,
    );
  });
  const tag = readFileSync(join(chart, 'Chart.yaml'), 'utf8').match(/^appVersion: "?([^"\n]+)"?/m)[1];
  test(`${c.file}: a Deployment and Service per app, with probes, the config and only the secrets it needs`, () =>
    checkApps(objects, { registry: c.registry, tag, ownerPasswordVariable: c.ownerPasswordVariable }));
  test(`${c.file}: every pod non-root, no privilege escalation, capabilities dropped, read-only root, limits`, () => checkPodSecurity(objects));
  test(`${c.file}: NetworkPolicies: default deny, only the gateway reachable, services to NATS and their stores`, () => checkNetworkPolicies(objects, c));
  test(`${c.file}: NetworkPolicies: each egress rule's exact ports and peers`, () => checkEgressRules(objects, c.egress));
  test(`${c.file}: metrics: scrape annotations, the gateway's metrics port apart from its public one, only the scraper let in`, () => checkMetrics(objects));
  c.extra(objects);
}
