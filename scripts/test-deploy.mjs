#!/usr/bin/env node
// The deploy tier: the Helm chart in deploy/helm, without a cluster.
//
// For each worked values file: `helm lint --strict`, `helm template`, every
// rendered object decoded strictly against the Kubernetes API types
// (tools/validate-manifests, docs/adr/0006), and assertions on the objects
// themselves: a Deployment per app with its probes, security context and
// limits, the NetworkPolicies, the migration hook. Then the values the chart
// must refuse, and proof that the validator catches what it claims to.
//
//   node scripts/test-deploy.mjs [report.json]
//
// helm and the validator are built from their Go modules on first use
// (scripts/tools/*.sh, cached in ~/.cache/vault/tools). Writes {passed, failed}
// to the report and exits 1 when any check fails.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify } from 'yaml';
import { alertRules, dashboardProblems, exportedSeries, isOperatorObject, promqlProblems } from './lib/observability-checks.mjs';
import { BACKUP_REFUSALS, checkBackups } from './test-deploy-backup.mjs';
import { DISTRIBUTED_APPS as APPS, SERVICE_NAMES as SERVICES } from './lib/services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const chart = join(root, 'deploy/helm');
const RELEASE = 'vault';
const NAMESPACE = 'vault';

function run(command, args, input) {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A tool built from its Go module by its script (minutes the first time, then cached). */
function tool(script) {
  const built = spawnSync('bash', [script], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (built.status !== 0) {
    process.stderr.write(`deploy: ${script} failed; the tier needs it\n`);
    if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify({ passed: 0, failed: 1 }));
    process.exit(1);
  }
  process.stdout.write(`deploy: ${built.stdout.trim()}\n`);
  return built.stdout.trim();
}

const helm = tool('scripts/tools/helm.sh');
const validator = tool('scripts/tools/validate-manifests.sh');

let passed = 0;
const failures = [];
function check(name, fn) {
  try {
    fn();
    passed++;
    process.stdout.write(`  ok    ${name}\n`);
  } catch (error) {
    failures.push(name);
    process.stdout.write(`  FAIL  ${name}\n        ${String(error.message).split('\n').join('\n        ')}\n`);
  }
}
function assert(condition, message) {
  if (!condition) throw new Error(message);
}
function equal(actual, expected, what) {
  assert(JSON.stringify(actual) === JSON.stringify(expected), `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const template = (args) => run(helm, ['template', RELEASE, chart, '--namespace', NAMESPACE, ...args]);
const parse = (manifest) =>
  parseAllDocuments(manifest)
    .map((d) => d.toJS())
    .filter((o) => o && typeof o === 'object');
const named = (objects, kind, name) => objects.find((o) => o.kind === kind && o.metadata?.name === name);
const fullname = (component) => `${RELEASE}-${component}`; // the release is named "vault": the chart does not repeat it
const podSpecOf = (o) => (o.kind === 'CronJob' ? o.spec.jobTemplate.spec.template.spec : o.spec?.template?.spec);
const containersOf = (o) => [...(podSpecOf(o).initContainers ?? []), ...podSpecOf(o).containers];
const envOf = (container) => Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));

/** Every workload the release runs: its pods must all be locked down, the trial's stores included. */
function checkPodSecurity(objects) {
  const workloads = objects.filter((o) => ['Deployment', 'StatefulSet', 'Job', 'CronJob', 'DaemonSet'].includes(o.kind));
  assert(workloads.length > 0, 'no workload rendered');
  for (const w of workloads) {
    const pod = podSpecOf(w);
    const where = `${w.kind} ${w.metadata.name}`;
    equal(pod.securityContext?.runAsNonRoot, true, `${where} pod runAsNonRoot`);
    assert(pod.securityContext?.runAsUser > 0, `${where}: runs as a non-zero uid`);
    equal(pod.securityContext?.seccompProfile?.type, 'RuntimeDefault', `${where} seccompProfile`);
    equal(pod.automountServiceAccountToken, false, `${where} automountServiceAccountToken`);
    for (const c of containersOf(w)) {
      const sc = c.securityContext ?? {};
      equal(sc.allowPrivilegeEscalation, false, `${where}/${c.name} allowPrivilegeEscalation`);
      equal(sc.readOnlyRootFilesystem, true, `${where}/${c.name} readOnlyRootFilesystem`);
      equal(sc.capabilities?.drop, ['ALL'], `${where}/${c.name} capabilities.drop`);
      assert(sc.privileged !== true, `${where}/${c.name}: privileged`);
      assert(c.resources?.limits?.cpu && c.resources?.limits?.memory, `${where}/${c.name}: resources.limits needs cpu and memory`);
      assert(c.resources?.requests?.cpu && c.resources?.requests?.memory, `${where}/${c.name}: resources.requests needs cpu and memory`);
    }
  }
}

function checkApps(objects, values) {
  const config = named(objects, 'ConfigMap', fullname('config'));
  assert(config, 'the shared ConfigMap is missing');
  equal(config.data.VAULT_MODE, 'distributed', 'VAULT_MODE');
  equal(config.data.HOST, '0.0.0.0', 'HOST (a container must listen on its pod address)');
  for (const app of APPS) {
    const deployment = named(objects, 'Deployment', fullname(app));
    assert(deployment, `no Deployment ${fullname(app)}`);
    const [container] = deployment.spec.template.spec.containers;
    equal(container.image, `${values.registry}/vault-${app}:${values.tag}`, `${app} image`);
    const port = container.ports.find((p) => p.name === 'http');
    assert(port, `${app}: no port named http`);
    equal(container.livenessProbe?.httpGet, { path: '/health/live', port: 'http' }, `${app} livenessProbe`);
    equal(container.readinessProbe?.httpGet, { path: '/health/ready', port: 'http' }, `${app} readinessProbe`);
    equal(container.envFrom?.[0]?.configMapRef?.name, fullname('config'), `${app} envFrom`);
    equal(envOf(container).PORT, String(port.containerPort), `${app} PORT`);
    const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
    assert(
      tmp && deployment.spec.template.spec.volumes.find((v) => v.name === tmp.name)?.emptyDir,
      `${app}: /tmp must be an emptyDir (the root filesystem is read-only)`,
    );
    const service = named(objects, 'Service', fullname(app));
    assert(service, `no Service ${fullname(app)}`);
    equal(service.spec.selector, deployment.spec.selector.matchLabels, `${app} Service selector`);
  }
  // What each app reads from Secrets: exactly what it needs.
  const secretEnv = (app) =>
    Object.entries(envOf(named(objects, 'Deployment', fullname(app)).spec.template.spec.containers[0]))
      .filter(([, v]) => v?.secretKeyRef)
      .map(([k]) => k)
      .sort();
  equal(secretEnv('gateway'), ['REDIS_URL'], 'gateway secrets');
  equal(secretEnv('auth-svc'), ['DATABASE_URL', values.ownerPasswordVariable].sort(), 'auth-svc secrets');
  equal(secretEnv('journal-svc'), ['DATABASE_URL', 'VAULT_MASTER_KEY'], 'journal-svc secrets');
  equal(secretEnv('media-svc'), ['DATABASE_URL', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'], 'media-svc secrets');
  equal(secretEnv('planner-svc'), ['DATABASE_URL'], 'planner-svc secrets');
  equal(secretEnv('audit-svc'), ['DATABASE_URL'], 'audit-svc secrets');
}

function checkNetworkPolicies(objects, { s3Port }) {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const deny = named(objects, 'NetworkPolicy', fullname('default-deny'));
  assert(deny, 'no default-deny NetworkPolicy');
  equal(
    deny.spec.podSelector.matchLabels,
    { 'app.kubernetes.io/name': 'vault', 'app.kubernetes.io/instance': RELEASE },
    'default-deny selects every pod of the release',
  );
  equal([...deny.spec.policyTypes].sort(), ['Egress', 'Ingress'], 'default-deny policyTypes');
  assert(!deny.spec.ingress && !deny.spec.egress, 'default-deny must allow nothing');

  const gateway = named(objects, 'NetworkPolicy', fullname('gateway'));
  assert(gateway, 'no NetworkPolicy for the gateway');
  equal(gateway.spec.ingress?.length, 1, 'gateway ingress rules');
  const [from] = gateway.spec.ingress[0].from;
  assert(from.namespaceSelector && from.podSelector, 'the gateway is reachable only from the ingress controller (namespace and pod selector in one peer)');
  equal(gateway.spec.ingress[0].ports, [{ port: 'http', protocol: 'TCP' }], 'gateway ingress port');

  // Only the gateway (and, in the trial, the stores from their clients) accepts traffic.
  const stores = ['postgres', 'nats', 'redis', 'minio'].map(fullname);
  const scrapePolicies = APPS.map((app) => fullname(`${app}-metrics`));
  for (const p of policies) {
    if (p.metadata.name === fullname('gateway') || stores.includes(p.metadata.name) || scrapePolicies.includes(p.metadata.name)) continue;
    assert(!p.spec.ingress, `${p.metadata.name} must not allow ingress`);
  }
  const egressPorts = (name) =>
    named(objects, 'NetworkPolicy', fullname(name))
      .spec.egress.flatMap((rule) => rule.ports.map((port) => port.port))
      .sort((a, b) => a - b);
  for (const service of SERVICES) {
    const expected = service === 'media' ? [4222, 5432, s3Port] : [4222, 5432];
    equal(
      egressPorts(`${service}-svc`),
      expected.sort((a, b) => a - b),
      `${service}-svc may reach NATS and its own stores only`,
    );
  }
  const dns = named(objects, 'NetworkPolicy', fullname('dns'));
  assert(
    dns?.spec.egress?.[0]?.ports?.some((p) => p.port === 53 && p.protocol === 'UDP'),
    'DNS egress for every pod',
  );
}

/**
 * Which store each app's egress rules reach, in the order of their rules
 * (templates/networkpolicies.yaml); the dns policy is every pod's.
 */
const EGRESS_STORES = {
  gateway: ['nats', 'redis', 's3'],
  ...Object.fromEntries(SERVICES.map((s) => [`${s}-svc`, s === 'media' ? ['nats', 'postgres', 's3'] : ['nats', 'postgres']])),
  migrations: ['postgres'],
};
/** The backup job's stores, when the release has one: NATS, and the bucket when it uploads there (scripts/test-deploy-backup.mjs checks its arguments). */
function backupEgressStores(objects) {
  const cronJob = named(objects, 'CronJob', fullname('backup'));
  return cronJob ? { backup: podSpecOf(cronJob).containers[0].args.includes('--s3-bucket') ? ['nats', 's3'] : ['nats'] } : {};
}
/** A worked values file's egress peers per store (networkPolicy.egress.<store>.to), undefined when it names none. */
const peersOf = (file) =>
  Object.fromEntries(
    Object.entries(parseAllDocuments(readFileSync(join(chart, file), 'utf8'))[0].toJS().networkPolicy?.egress ?? {}).map(([store, e]) => [
      store,
      e.to?.length ? e.to : undefined,
    ]),
  );
/** The trial's peers: its own store's pods. */
const trialPeers = Object.fromEntries(
  Object.entries({ nats: 'nats', postgres: 'postgres', redis: 'redis', s3: 'minio' }).map(([store, component]) => [
    store,
    [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'vault', 'app.kubernetes.io/instance': RELEASE, 'app.kubernetes.io/component': component } } }],
  ]),
);
/**
 * Every egress rule of every NetworkPolicy, exactly: `ports` maps each store
 * to the TCP ports its rule must allow, and nothing else; `peers` the `to` of
 * each store's rule (undefined: any address). DNS keeps port 53, UDP and TCP.
 */
function checkEgressRules(objects, { ports, peers = {} }) {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy' && o.spec.egress?.length);
  const egressStores = { ...EGRESS_STORES, ...backupEgressStores(objects) };
  const expectedNames = [fullname('dns'), ...Object.keys(egressStores).map(fullname)].sort();
  equal(policies.map((p) => p.metadata.name).sort(), expectedNames, 'the NetworkPolicies with egress rules');
  const dns = named(objects, 'NetworkPolicy', fullname('dns'));
  equal(dns.spec.egress.length, 1, 'dns egress rules');
  equal(
    dns.spec.egress[0].ports,
    [
      { port: 53, protocol: 'UDP' },
      { port: 53, protocol: 'TCP' },
    ],
    'dns egress ports',
  );
  for (const [app, stores] of Object.entries(egressStores)) {
    const rules = named(objects, 'NetworkPolicy', fullname(app)).spec.egress;
    equal(rules.length, stores.length, `${app}: egress rules (${stores.join(', ')})`);
    stores.forEach((store, i) => {
      equal(
        rules[i].ports,
        ports[store].map((port) => ({ port, protocol: 'TCP' })),
        `${app}: egress rule ${i + 1} (${store}) ports`,
      );
      equal(rules[i].to, peers[store], `${app}: egress rule ${i + 1} (${store}) peers`);
    });
  }
}

/** The port each app serves /metrics on: the gateway's own metrics port, a service's health port. */
const metricsPortOf = (objects, app, gatewayPort = 9464) =>
  app === 'gateway'
    ? gatewayPort
    : named(objects, 'Deployment', fullname(app)).spec.template.spec.containers[0].ports.find((p) => p.name === 'http').containerPort;

/** Issue 20: every pod annotated for scraping; the scraper reaches each metrics port and nothing else. */
function checkMetrics(objects, gatewayPort = 9464) {
  for (const app of APPS) {
    const deployment = named(objects, 'Deployment', fullname(app));
    const port = metricsPortOf(objects, app, gatewayPort);
    const annotations = deployment.spec.template.metadata.annotations;
    equal(
      [annotations['prometheus.io/scrape'], annotations['prometheus.io/port'], annotations['prometheus.io/path']],
      ['true', String(port), '/metrics'],
      `${app} scrape annotations`,
    );
    const policy = named(objects, 'NetworkPolicy', fullname(`${app}-metrics`));
    assert(policy, `no NetworkPolicy ${fullname(`${app}-metrics`)}`);
    equal(policy.spec.podSelector.matchLabels, deployment.spec.selector.matchLabels, `${app} metrics policy selects its pods`);
    equal(policy.spec.policyTypes, ['Ingress'], `${app} metrics policy types`);
    equal(policy.spec.ingress.length, 1, `${app} metrics policy rules`);
    const [peer] = policy.spec.ingress[0].from;
    assert(peer.namespaceSelector && peer.podSelector, `${app}: the scraper is one peer, its namespace and pod selector together`);
    equal(policy.spec.ingress[0].ports, [{ port, protocol: 'TCP' }], `${app} metrics policy ports`);
  }
  const gateway = named(objects, 'Deployment', fullname('gateway')).spec.template.spec.containers[0];
  const http = gateway.ports.find((p) => p.name === 'http').containerPort;
  assert(http !== gatewayPort, 'the gateway serves its metrics on its public port');
  equal(gateway.ports.find((p) => p.name === 'metrics')?.containerPort, gatewayPort, 'gateway metrics containerPort');
  equal([envOf(gateway).METRICS_PORT, envOf(gateway).METRICS_HOST], [String(gatewayPort), '0.0.0.0'], 'gateway METRICS_PORT, METRICS_HOST');
  // The public Service (and so the Ingress, a NodePort, a LoadBalancer) carries no metrics port.
  equal(
    named(objects, 'Service', fullname('gateway')).spec.ports.map((p) => p.targetPort),
    ['http'],
    'the gateway Service targets its public port only',
  );
  for (const app of APPS)
    equal(envOf(named(objects, 'Deployment', fullname(app)).spec.template.spec.containers[0]).VAULT_METRICS, undefined, `${app} VAULT_METRICS`);
}

function checkMigrationHook(objects, { databaseKeys }) {
  const jobs = objects.filter((o) => o.kind === 'Job');
  equal(jobs.length, SERVICES.length, 'one migration Job per service');
  for (const service of SERVICES) {
    const job = named(objects, 'Job', fullname(`migrate-${service}`));
    assert(job, `no migration Job for ${service}`);
    const hooks = (job.metadata.annotations?.['helm.sh/hook'] ?? '').split(',');
    assert(hooks.includes('pre-install') && hooks.includes('pre-upgrade'), `${service}: helm.sh/hook must be pre-install,pre-upgrade (is ${hooks})`);
    assert(job.metadata.annotations['helm.sh/hook-delete-policy']?.includes('before-hook-creation'), `${service}: a hook-delete-policy`);
    // helm uninstall leaves hook resources: a failed Job and its pods must still go away by themselves.
    equal(job.spec.ttlSecondsAfterFinished, 3600, `${service}: ttlSecondsAfterFinished`);
    const [container] = job.spec.template.spec.containers;
    equal(container.command, ['node', 'dist/main.js', 'migrate'], `${service} migrate command`);
    assert(
      container.image.endsWith(`/vault-${service}-svc:${container.image.split(':').pop()}`),
      `${service}: runs its own service's image (${container.image})`,
    );
    assert(!container.envFrom, `${service}: a pre-install hook cannot read the release's ConfigMap (it does not exist yet)`);
    equal(envOf(container).DATABASE_URL?.secretKeyRef?.key, databaseKeys[service], `${service} migration DATABASE_URL key`);
    const deployment = named(objects, 'Deployment', fullname(`${service}-svc`));
    equal(
      envOf(container).DATABASE_URL,
      envOf(deployment.spec.template.spec.containers[0]).DATABASE_URL,
      `${service}: the job migrates the database the service uses`,
    );
  }
  equal(named(objects, 'ConfigMap', fullname('config')).data.VAULT_SKIP_MIGRATIONS, 'true', 'services skip the migrations the job applied');
}

function validate(manifest, what) {
  const result = run(validator, ['-'], manifest);
  const summary = result.stdout.trim().split('\n').pop();
  const invalid = result.stdout.split('\n').filter((l) => l.startsWith('INVALID'));
  assert(result.status === 0, `validate-manifests refused ${what}:\n${invalid.join('\n') || result.stderr}`);
  return summary;
}

// ---------------------------------------------------------------- the worked values files

const cases = [
  {
    file: 'values-production.yaml',
    registry: 'ghcr.io/acme',
    ownerPasswordVariable: 'VAULT_OWNER_PASSWORD_HASH',
    s3Port: 443,
    // nats://...:4222 and https://... as before; PostgreSQL and Redis (URLs in the Secret) from networkPolicy.egress.
    egress: { ports: { nats: [4222], postgres: [5432], redis: [6380], s3: [443] }, peers: peersOf('values-production.yaml') },
    extra: (objects) => {
      check('production: a pre-install/pre-upgrade migration Job per service image, before the services serve', () =>
        checkMigrationHook(objects, { databaseKeys: Object.fromEntries(SERVICES.map((s) => [s, `${s.toUpperCase()}_DATABASE_URL`])) }),
      );
      check('production: every secret from the existing Secret, none rendered by the chart', () => {
        assert(!objects.some((o) => o.kind === 'Secret'), 'the chart rendered a Secret');
        const names = new Set(
          objects
            .filter((o) => podSpecOf(o))
            .flatMap(containersOf)
            .flatMap((c) => (c.env ?? []).map((e) => e.valueFrom?.secretKeyRef?.name).filter(Boolean)),
        );
        equal([...names], ['vault-secrets'], 'Secrets referenced');
      });
      check('production: Ingress to the gateway with TLS, PodDisruptionBudget and HPA for the gateway', () => {
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
      check(
        'production: a stopping gateway pod keeps serving for preStopSeconds (endpoints removed first), within its grace period; the services have no such wait',
        () => {
          const gateway = named(objects, 'Deployment', fullname('gateway')).spec.template.spec;
          equal(gateway.containers[0].lifecycle?.preStop, { exec: { command: ['sleep', '5'] } }, 'gateway preStop');
          assert(
            gateway.terminationGracePeriodSeconds >= 5 + 15,
            `terminationGracePeriodSeconds ${gateway.terminationGracePeriodSeconds} leaves too little after the preStop wait`,
          );
          for (const app of APPS.filter((a) => a !== 'gateway'))
            equal(named(objects, 'Deployment', fullname(app)).spec.template.spec.containers[0].lifecycle, undefined, `${app} lifecycle`);
          // One replica per service here: a budget would block every drain.
          equal(
            objects.filter((o) => o.kind === 'PodDisruptionBudget').map((o) => o.metadata.name),
            [fullname('gateway')],
            'budgets with one replica per service',
          );
        },
      );
      check('production: the gateway answers the ingress host only (VAULT_ALLOWED_HOSTS; 421 to any other Host)', () => {
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
      check('trial: a database role per service (docs/adr/0008): each service its own URL key, the roles made in the PostgreSQL pod', () => {
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
          const url = new URL(decoded(`${s.toUpperCase()}_DATABASE_URL`));
          equal([url.username, url.host, url.pathname], [`vault_${s}`, `${fullname('postgres')}:5432`, '/vault'], `${s} URL`);
          equal(decodeURIComponent(url.password), roles.find((r) => r.schema === s).password, `${s} URL password`);
          const env = envOf(named(objects, 'Deployment', fullname(`${s}-svc`)).spec.template.spec.containers[0]);
          equal(env.DATABASE_URL?.secretKeyRef, { name: fullname('trial'), key: `${s.toUpperCase()}_DATABASE_URL` }, `${s}-svc DATABASE_URL`);
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
      check('trial: PostgreSQL, NATS, Redis and MinIO as StatefulSets, secrets generated, services migrate at start', () => {
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
      check('trial: no Ingress host, so the gateway keeps the loopback names kubectl port-forward uses (VAULT_ALLOWED_HOSTS unset)', () => {
        equal(named(objects, 'ConfigMap', fullname('config')).data.VAULT_ALLOWED_HOSTS, undefined, 'VAULT_ALLOWED_HOSTS');
      });
    },
  },
];

const rendered = {};
for (const c of cases) {
  const values = join('deploy/helm', c.file);
  process.stdout.write(`\n${c.file}\n`);
  check(`${c.file}: helm lint --strict`, () => {
    const lint = run(helm, ['lint', chart, '--strict', '-f', values]);
    assert(lint.status === 0, lint.stdout + lint.stderr);
  });
  const result = template(['-f', values]);
  check(`${c.file}: helm template`, () => assert(result.status === 0, result.stderr));
  if (result.status !== 0) continue;
  const objects = parse(result.stdout);
  rendered[c.file] = result.stdout;
  check(`${c.file}: every object valid against the Kubernetes API types`, () => {
    const summary = validate(result.stdout, c.file);
    process.stdout.write(`        ${summary}\n`);
    assert(
      summary.startsWith(`validated ${objects.length} objects`),
      `the validator saw other objects than the chart rendered (${objects.length}): ${summary}`,
    );
  });
  const tag = readFileSync(join(chart, 'Chart.yaml'), 'utf8').match(/^appVersion: "?([^"\n]+)"?/m)[1];
  check(`${c.file}: a Deployment and Service per app, with probes, the config and only the secrets it needs`, () =>
    checkApps(objects, { registry: c.registry, tag, ownerPasswordVariable: c.ownerPasswordVariable }),
  );
  check(`${c.file}: every pod non-root, no privilege escalation, capabilities dropped, read-only root, limits`, () => checkPodSecurity(objects));
  check(`${c.file}: NetworkPolicies: default deny, only the gateway reachable, services to NATS and their stores`, () => checkNetworkPolicies(objects, c));
  check(`${c.file}: NetworkPolicies: each egress rule's exact ports and peers`, () => checkEgressRules(objects, c.egress));
  check(`${c.file}: metrics: scrape annotations, the gateway's metrics port apart from its public one, only the scraper let in`, () => checkMetrics(objects));
  c.extra(objects);
}

// ---------------------------------------------------------------- other branches of the templates

process.stdout.write('\nother values\n');
const variants = [
  {
    name: 'services with 2 replicas: a PodDisruptionBudget each (one pod evicted at a time); one replica, none; preStopSeconds=0 leaves the gateway no wait',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'services.auth.replicas=2,services.journal.replicas=3,gateway.preStopSeconds=0'],
    expect: (objects) => {
      const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget');
      equal(budgets.map((o) => o.metadata.name).sort(), [fullname('auth-svc'), fullname('gateway'), fullname('journal-svc')], 'budgets');
      for (const app of ['auth-svc', 'journal-svc']) {
        const budget = named(objects, 'PodDisruptionBudget', fullname(app));
        equal(
          budget.spec,
          { maxUnavailable: 1, selector: { matchLabels: named(objects, 'Deployment', fullname(app)).spec.selector.matchLabels } },
          `${app} budget`,
        );
      }
      equal(
        named(objects, 'Deployment', fullname('gateway')).spec.template.spec.containers[0].lifecycle.preStop.exec.command,
        ['sleep', '0'],
        'gateway preStop',
      );
    },
  },
  {
    name: 'production without policies, Ingress, HPA or budget',
    args: [
      '-f',
      'deploy/helm/values-production.yaml',
      '--set',
      'networkPolicy.enabled=false,ingress.enabled=false,ingress.tls.enabled=false,gateway.autoscaling.enabled=false,gateway.podDisruptionBudget.enabled=false',
    ],
    expect: (objects) => {
      for (const kind of ['NetworkPolicy', 'Ingress', 'HorizontalPodAutoscaler', 'PodDisruptionBudget'])
        assert(!objects.some((o) => o.kind === kind), `${kind} rendered`);
      equal(named(objects, 'Deployment', fullname('gateway')).spec.replicas, 2, 'gateway replicas');
    },
  },
  {
    name: 'NATS URL from a Secret, extra environment, the web app elsewhere',
    args: [
      '-f',
      'deploy/helm/values-production.yaml',
      '--set',
      'secrets.natsUrl.key=NATS_URL,gateway.webDist=/app/web',
      '--set-json',
      'services.audit.extraEnv=[{"name":"NODE_OPTIONS","value":"--max-old-space-size=192"}]',
    ],
    expect: (objects) => {
      assert(!('NATS_URL' in named(objects, 'ConfigMap', fullname('config')).data), 'NATS_URL still in the ConfigMap');
      for (const app of APPS)
        equal(
          envOf(named(objects, 'Deployment', fullname(app)).spec.template.spec.containers[0]).NATS_URL,
          { secretKeyRef: { name: 'vault-secrets', key: 'NATS_URL' } },
          `${app} NATS_URL`,
        );
      equal(envOf(named(objects, 'Deployment', fullname('gateway')).spec.template.spec.containers[0]).VAULT_WEB_DIST, '/app/web', 'VAULT_WEB_DIST');
      equal(envOf(named(objects, 'Deployment', fullname('audit-svc')).spec.template.spec.containers[0]).NODE_OPTIONS, '--max-old-space-size=192', 'extraEnv');
    },
  },
  {
    name: 'host names of the operator beside the ingress host, each once',
    args: [
      '-f',
      'deploy/helm/values-production.yaml',
      '--set-json',
      'gateway.allowedHosts=["vault.internal.example:8443","*.vault.acme.example","vault.acme.example"]',
    ],
    expect: (objects) => {
      equal(
        named(objects, 'ConfigMap', fullname('config')).data.VAULT_ALLOWED_HOSTS,
        'vault.acme.example,vault.internal.example:8443,*.vault.acme.example',
        'VAULT_ALLOWED_HOSTS',
      );
    },
  },
  {
    name: 'the trial reached through its own name only',
    args: ['-f', 'deploy/helm/values-trial.yaml', '--set-json', 'gateway.allowedHosts=["vault.trial.test"]'],
    expect: (objects) => equal(named(objects, 'ConfigMap', fullname('config')).data.VAULT_ALLOWED_HOSTS, 'vault.trial.test', 'VAULT_ALLOWED_HOSTS'),
  },
  {
    name: "the trial with the owner's hash in a Secret of the operator's",
    args: ['-f', 'deploy/helm/values-trial.yaml', '--set', 'secrets.ownerPasswordHash.name=vault-owner'],
    expect: (objects) => {
      const env = envOf(named(objects, 'Deployment', fullname('auth-svc')).spec.template.spec.containers[0]);
      equal(env.VAULT_OWNER_PASSWORD_HASH, { secretKeyRef: { name: 'vault-owner', key: 'VAULT_OWNER_PASSWORD_HASH' } }, 'auth-svc hash');
      assert(!env.VAULT_OWNER_PASSWORD, 'the generated plain password is still used');
    },
  },
];
for (const variant of variants) {
  check(`renders and validates: ${variant.name}`, () => {
    const result = template(variant.args);
    assert(result.status === 0, result.stderr);
    validate(result.stdout, variant.name);
    const objects = parse(result.stdout);
    checkPodSecurity(objects);
    variant.expect(objects);
  });
}

// ---------------------------------------------------------------- egress ports follow the URLs

// Each egress rule allows the port of the URL its app connects to (nats.url,
// s3.endpoint: their own port, else the scheme's default), not a port of the
// values that the URL may have left behind. PostgreSQL's and Redis's URLs are
// in Secrets the chart cannot read: their ports are networkPolicy.egress.<store>.ports.
process.stdout.write('\negress ports follow the URLs\n');
const productionPeers = peersOf('values-production.yaml');
const portVariants = [
  {
    name: 'odd ports everywhere: nats://nats.example:4723, http://minio.example:9000, PostgreSQL 6543, Redis 6390',
    args: [
      '-f',
      'deploy/helm/values-production.yaml',
      '--set',
      'nats.url=nats://nats.example:4723,s3.endpoint=http://minio.example:9000',
      '--set-json',
      'networkPolicy.egress.postgres.ports=[6543]',
      '--set-json',
      'networkPolicy.egress.redis.ports=[6390]',
    ],
    config: { NATS_URL: 'nats://nats.example:4723', S3_ENDPOINT: 'http://minio.example:9000' },
    egress: { ports: { nats: [4723], postgres: [6543], redis: [6390], s3: [9000] }, peers: productionPeers },
  },
  {
    name: 'URLs without a port: tls://nats.example is 4222, https://s3.example 443 (whatever ports the values list)',
    args: [
      '-f',
      'deploy/helm/values-production.yaml',
      '--set',
      'nats.url=tls://nats.example,s3.endpoint=https://s3.example',
      '--set-json',
      'networkPolicy.egress.nats.ports=[4999]',
      '--set-json',
      'networkPolicy.egress.s3.ports=[8443]',
    ],
    config: { NATS_URL: 'tls://nats.example', S3_ENDPOINT: 'https://s3.example' },
    egress: { ports: { nats: [4222], postgres: [5432], redis: [6380], s3: [443] }, peers: productionPeers },
  },
  {
    name: 'URLs without a port: nats://nats.example is 4222, http://minio.example 80',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'nats.url=nats://nats.example,s3.endpoint=http://minio.example/'],
    config: { NATS_URL: 'nats://nats.example', S3_ENDPOINT: 'http://minio.example/' },
    egress: { ports: { nats: [4222], postgres: [5432], redis: [6380], s3: [80] }, peers: productionPeers },
  },
  {
    name: 'IPv6 addresses: nats://[fd00::42]:4723, https://[fd00::9]:8443',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'nats.url=nats://[fd00::42]:4723,s3.endpoint=https://[fd00::9]:8443'],
    config: { NATS_URL: 'nats://[fd00::42]:4723', S3_ENDPOINT: 'https://[fd00::9]:8443' },
    egress: { ports: { nats: [4723], postgres: [5432], redis: [6380], s3: [8443] }, peers: productionPeers },
  },
  {
    name: 'NATS URL from a Secret (unreadable by the chart): networkPolicy.egress.nats.ports, not the port of nats.url',
    args: [
      '-f',
      'deploy/helm/values-production.yaml',
      '--set',
      'secrets.natsUrl.key=NATS_URL,nats.url=nats://nats.example:4723',
      '--set-json',
      'networkPolicy.egress.nats.ports=[4333]',
    ],
    config: { NATS_URL: undefined, S3_ENDPOINT: 'https://s3.eu-central-1.amazonaws.com' },
    egress: { ports: { nats: [4333], postgres: [5432], redis: [6380], s3: [443] }, peers: productionPeers },
  },
  {
    name: "the chart's defaults with only what production requires: 4222, 5432, 6379, 443 to any address",
    args: ['--set', 'image.registry=ghcr.io/acme,secrets.existingSecret=vault-secrets,nats.url=nats://nats.example:4222,s3.endpoint=https://s3.example'],
    config: { NATS_URL: 'nats://nats.example:4222', S3_ENDPOINT: 'https://s3.example' },
    egress: { ports: { nats: [4222], postgres: [5432], redis: [6379], s3: [443] } },
  },
];
for (const variant of portVariants) {
  check(`egress ports: ${variant.name}`, () => {
    const result = template(variant.args);
    assert(result.status === 0, result.stderr);
    validate(result.stdout, variant.name);
    const objects = parse(result.stdout);
    const config = named(objects, 'ConfigMap', fullname('config')).data;
    for (const [key, value] of Object.entries(variant.config)) equal(config[key], value, `ConfigMap ${key} (the URL the apps connect to)`);
    checkEgressRules(objects, variant.egress);
  });
}

// ---------------------------------------------------------------- metrics: ServiceMonitor, alert rules, dashboard

process.stdout.write('\nmetrics\n');
// What the code exports, from the built registry (npm test builds first).
const exported = await exportedSeries(root);
{
  const result = template([
    '-f',
    'deploy/helm/values-production.yaml',
    '--set',
    'metrics.serviceMonitor.enabled=true,metrics.prometheusRule.enabled=true,metrics.gatewayPort=9100',
  ]);
  check('metrics.serviceMonitor and metrics.prometheusRule: helm template', () => assert(result.status === 0, result.stderr));
  const objects = result.status === 0 ? parse(result.stdout) : [];
  check('with the ServiceMonitor: every object of the Kubernetes API valid, the scrape port moved with metrics.gatewayPort', () => {
    const kubernetes = objects.filter((o) => !isOperatorObject(o));
    validate(kubernetes.map((o) => stringify(o)).join('---\n'), 'the chart with the ServiceMonitor and PrometheusRule');
    checkMetrics(objects, 9100);
  });
  check('ServiceMonitor: one headless Service per app naming only its metrics port, all selected', () => {
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
  check('PrometheusRule: the alerts that matter, each expression valid PromQL on metrics the vault exports', () => {
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
check('the PromQL check refuses a syntax error and a metric the vault does not export (the check works)', () => {
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
check('deploy/grafana/vault-dashboard.json: JSON, panels with targets, each expression valid PromQL on exported metrics', () =>
  equal(dashboardProblems(join(root, 'deploy/grafana/vault-dashboard.json'), exported), [], 'dashboard problems'),
);
check('the dashboard shows every vault_ family the code exports', () => {
  const dashboard = readFileSync(join(root, 'deploy/grafana/vault-dashboard.json'), 'utf8');
  const families = [...new Set([...exported].filter((n) => n.startsWith('vault_')).map((n) => n.replace(/_(bucket|sum|count)$/, '')))];
  equal(
    families.filter((family) => !dashboard.includes(family)),
    [],
    'families missing from the dashboard',
  );
});
check('metrics.enabled=false: VAULT_METRICS=false in every app, no annotations, no metrics port or policy', () => {
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

// ---------------------------------------------------------------- values the chart refuses

process.stdout.write('\ninvalid values\n');
const refused = [
  {
    name: 'production values without an existing Secret',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'secrets.existingSecret='],
    message: 'secrets.existingSecret: required without trial.enabled',
  },
  { name: 'the defaults alone (no registry, no stores)', args: [], message: 'image.registry: required' },
  {
    name: 'the trial with the pre-install migration job',
    args: ['-f', 'deploy/helm/values-trial.yaml', '--set', 'migrations.job.enabled=true'],
    message: 'migrations.job.enabled: must be false with trial.enabled',
  },
  {
    name: 'a disruption budget that blocks every drain',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'gateway.autoscaling.enabled=false', '--set', 'gateway.replicas=1'],
    message: 'gateway.podDisruptionBudget.minAvailable: 1 leaves no gateway pod to evict from 1 replicas',
  },
  {
    name: 'an Ingress without a host and no allowed host names (every request would get 421)',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'ingress.host=,ingress.tls.enabled=false'],
    message: 'gateway.allowedHosts: required with ingress.enabled and no ingress.host',
  },
  {
    name: 'an allowed host given as a URL (schema)',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set-json', 'gateway.allowedHosts=["https://vault.acme.example"]'],
    message: '/gateway/allowedHosts/0',
  },
  {
    name: 'a NATS URL whose port is no TCP port (it would render a NetworkPolicy the API server refuses)',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'nats.url=nats://nats.example:99999'],
    message: 'nats.url: port 99999 of nats://nats.example:99999 is not a TCP port',
  },
  {
    name: 'a bucket endpoint on port 0',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 's3.endpoint=http://minio.example:0'],
    message: 's3.endpoint: port 0 of http://minio.example:0 is not a TCP port',
  },
  {
    name: 'a misspelled value (schema)',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'gateway.replicaz=3'],
    message: "additional properties 'replicaz' not allowed",
  },
  {
    name: 'a value out of range (schema)',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'config.sessionTtlSeconds=0'],
    message: '/config/sessionTtlSeconds',
  },
  {
    name: 'a service without limits (schema)',
    args: ['-f', 'deploy/helm/values-production.yaml', '--set', 'services.journal.resources.limits=null'],
    message: "missing property 'limits'",
  },
  ...BACKUP_REFUSALS,
];
for (const r of refused) {
  check(`refuses ${r.name}, saying why`, () => {
    const result = template(r.args);
    assert(result.status !== 0, 'helm template succeeded');
    assert(result.stderr.includes(r.message), `expected "${r.message}" in:\n${result.stderr}`);
  });
}
check('the checks name every problem at once', () => {
  const result = template(['--set', 'trial.enabled=false']);
  for (const field of ['image.registry', 'secrets.existingSecret', 'nats.url', 's3.endpoint'])
    assert(result.stderr.includes(`- ${field}:`), `${field} not named in:\n${result.stderr}`);
});

// ---------------------------------------------------------------- scheduled backups

process.stdout.write('\nscheduled backups\n');
checkBackups({ check, assert, equal, template, parse, validate, named, fullname, podSpecOf, envOf, checkPodSecurity, peersOf });

// ---------------------------------------------------------------- NOTES.txt

process.stdout.write('\nNOTES.txt\n');
/** helm template does not print NOTES.txt: render it as a template of a copy of the chart. */
function notes(args) {
  const copy = mkdtempSync(join(tmpdir(), 'vault-chart-'));
  try {
    cpSync(chart, copy, { recursive: true });
    cpSync(join(chart, 'templates/NOTES.txt'), join(copy, 'notes.txt'));
    writeFileSync(join(copy, 'templates/zz-notes.yaml'), 'notes: {{ tpl (.Files.Get "notes.txt") . | toJson }}\n');
    const result = run(helm, ['template', RELEASE, copy, '--namespace', NAMESPACE, '--show-only', 'templates/zz-notes.yaml', ...args]);
    assert(result.status === 0, result.stderr);
    return parse(result.stdout)[0].notes;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
check('NOTES (trial): how to reach the vault and read and set the owner password', () => {
  const text = notes(['-f', 'deploy/helm/values-trial.yaml']);
  for (const expected of [
    `port-forward svc/${fullname('gateway')} 8080:80`,
    `port-forward svc/${fullname('minio')} 9000:9000`,
    `get secret ${fullname('trial')}`,
    'VAULT_OWNER_PASSWORD',
    `rollout restart deployment/${fullname('auth-svc')}`,
  ])
    assert(text.includes(expected), `missing "${expected}" in:\n${text}`);
});
check('NOTES (production): the URL and how to set the owner password hash', () => {
  const text = notes(['-f', 'deploy/helm/values-production.yaml']);
  for (const expected of ['https://vault.acme.example/', 'argon2', 'patch secret vault-secrets', 'VAULT_OWNER_PASSWORD_HASH', 'docs/deploy.md'])
    assert(text.includes(expected), `missing "${expected}" in:\n${text}`);
});

// ---------------------------------------------------------------- the images' Dockerfiles

// What the chart takes for granted of the images (docs/deploy.md, "Images"); `npm run images` builds and runs them.
process.stdout.write('\nDockerfiles\n');
const chartValues = parseAllDocuments(readFileSync(join(chart, 'values.yaml'), 'utf8'))[0].toJS();
const nodeMajor = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node.match(/(\d+)/)[1];
/** The instructions of a Dockerfile (continuation lines joined, comments dropped), split into its stages. */
function dockerfileStages(app) {
  const text = readFileSync(join(root, 'apps', app, 'Dockerfile'), 'utf8');
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages = [{ from: null, lines: [] }];
  for (const line of lines) {
    if (/^FROM\s/i.test(line)) stages.push({ from: line, lines: [] });
    else stages.at(-1).lines.push(line);
  }
  return { preamble: stages[0].lines, stages: stages.slice(1) };
}
for (const app of APPS) {
  check(
    `apps/${app}/Dockerfile: base a build argument (node:${nodeMajor}-bookworm-slim), multi-stage, uid ${chartValues.securityContext.runAsUser}, /app, no HEALTHCHECK`,
    () => {
      assert(existsSync(join(root, 'apps', app, 'Dockerfile')), 'missing');
      const { preamble, stages } = dockerfileStages(app);
      equal(preamble, [`ARG BASE_IMAGE=node:${nodeMajor}-bookworm-slim`], 'before the first FROM');
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own ${BASE_IMAGE}, read as text.
      const froms = ['FROM ${BASE_IMAGE} AS build', 'FROM ${BASE_IMAGE} AS deps', 'FROM deps'];
      equal(
        stages.map((s) => s.from),
        froms,
        'the stages: build, the shared layer, this app',
      );
      equal(stages[1].lines, ['COPY --from=build /rootfs/deps/ /'], 'the shared layer holds the staged dependencies only');
      const last = stages.at(-1);
      assert(!stages.some((s) => s.lines.some((l) => /^HEALTHCHECK/i.test(l))), "a HEALTHCHECK (health is the app's own endpoint, probed by the orchestrator)");
      const instruction = (word) => last.lines.filter((l) => l.toUpperCase().startsWith(`${word} `)).map((l) => l.slice(word.length + 1).trim());
      equal(instruction('USER'), [`${chartValues.securityContext.runAsUser}:${chartValues.securityContext.runAsGroup}`], 'USER');
      equal(instruction('WORKDIR'), ['/app'], 'WORKDIR (the migration Job runs `node dist/main.js migrate` there)');
      equal(instruction('CMD'), ['["node", "dist/main.js"]'], 'CMD');
      assert(!last.lines.some((l) => /^RUN\s/i.test(l)), 'the last stage runs nothing: it only copies what the build laid out');
      equal(
        last.lines.filter((l) => /^COPY\s/i.test(l)),
        [`COPY --from=build /rootfs/${app}/ /`],
        "the last stage copies this app's files (scripts/containers/stage-app.mjs)",
      );
      const port = app === 'gateway' ? chartValues.gateway.port : chartValues.services[app.replace(/-svc$/, '')].port;
      equal(instruction('EXPOSE'), [String(port)], "EXPOSE (the chart's port)");
      assert(
        instruction('ENV').some((e) => e.includes(`PORT=${port}`) && e.includes('VAULT_MODE=distributed') && e.includes('HOST=0.0.0.0')),
        'ENV PORT, VAULT_MODE=distributed, HOST=0.0.0.0',
      );
      const staged =
        stages[0].lines
          .join(' ')
          .match(/stage-app\.mjs \/rootfs ([^&]+)/)?.[1]
          .trim()
          .split(/\s+/) ?? [];
      equal(
        staged.map((spec) => spec.split('+')[0]),
        APPS,
        'the apps the build stage lays out',
      );
      equal(
        staged.find((spec) => spec.startsWith('gateway')),
        'gateway+apps/web/dist',
        'the web app (apps/web/dist) goes with the gateway',
      );
    },
  );
}
check('apps/*/Dockerfile: the same build and shared-layer stages in all six (one workspace build, one dependency layer)', () => {
  const shared = (app) => JSON.stringify(dockerfileStages(app).stages.slice(0, 2));
  for (const app of APPS) equal(shared(app), shared(APPS[0]), `${app}'s build and deps stages`);
});
check('.dockerignore: no node_modules, builds or local data in the build context', () => {
  const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  for (const pattern of ['.git', '**/node_modules', '**/dist', 'data', '.env']) assert(ignored.includes(pattern), `${pattern} not ignored`);
});

// ---------------------------------------------------------------- the validator itself

process.stdout.write('\nvalidate-manifests\n');
const fixtures = join(root, 'tools/validate-manifests/testdata');
for (const file of readdirSync(fixtures)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  const text = readFileSync(join(fixtures, file), 'utf8');
  const valid = text.startsWith('# Valid');
  check(`validator: ${file} is ${valid ? 'accepted' : 'refused'}`, () => {
    const result = run(validator, [join(fixtures, file)]);
    equal(result.status, valid ? 0 : 1, `exit status (output: ${result.stdout.trim()})`);
  });
}
if (rendered['values-production.yaml']) {
  check('validator: a misspelled field in the rendered chart is refused, by name', () => {
    const broken = rendered['values-production.yaml'].replace('readinessProbe:', 'readinesProbe:');
    const result = run(validator, ['-'], broken);
    equal(result.status, 1, 'exit status');
    assert(/INVALID apps\/v1 Deployment .*unknown field "spec\.template\.spec\.containers\[0\]\.readinesProbe"/.test(result.stdout), result.stdout);
    assert(/validated \d+ objects .*: \d+ valid, 1 invalid/.test(result.stdout), 'the summary counts the one invalid object');
  });
}

const failed = failures.length;
process.stdout.write(`\ndeploy: ${passed} passed, ${failed} failed${failed ? ` (${failures.join('; ')})` : ''}\n`);
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify({ passed, failed }));
process.exit(failed > 0 ? 1 : 0);
