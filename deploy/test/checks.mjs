// Assertions on a rendered release that several deploy tests make: the pods'
// security, the apps, the NetworkPolicies and their egress rules, metrics and
// the migration hook.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { workdirOf } from '../../scripts/containers/dockerfile.mjs';
import { APPS, assert, chart, containersOf, envOf, equal, fullname, named, podSpecOf, RELEASE, SERVICES } from './kit.mjs';

/** Every workload the release runs: its pods must all be locked down, the trial's stores included. */
export function checkPodSecurity(objects) {
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

export function checkApps(objects, values) {
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

export function checkNetworkPolicies(objects, { s3Port }) {
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
/** The backup job's stores, when the release has one: NATS, and the bucket when it uploads there (backup.test.mjs checks its arguments). */
function backupEgressStores(objects) {
  const cronJob = named(objects, 'CronJob', fullname('backup'));
  return cronJob ? { backup: podSpecOf(cronJob).containers[0].args.includes('--s3-bucket') ? ['nats', 's3'] : ['nats'] } : {};
}
/** A worked values file's egress peers per store (networkPolicy.egress.<store>.to), undefined when it names none. */
export const peersOf = (file) =>
  Object.fromEntries(
    Object.entries(parseAllDocuments(readFileSync(join(chart, file), 'utf8'))[0].toJS().networkPolicy?.egress ?? {}).map(([store, e]) => [
      store,
      e.to?.length ? e.to : undefined,
    ]),
  );
/** The trial's peers: its own store's pods. */
export const trialPeers = Object.fromEntries(
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
export function checkEgressRules(objects, { ports, peers = {} }) {
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
export const metricsPortOf = (objects, app, gatewayPort = 9464) =>
  app === 'gateway'
    ? gatewayPort
    : named(objects, 'Deployment', fullname(app)).spec.template.spec.containers[0].ports.find((p) => p.name === 'http').containerPort;

/** Issue 20: every pod annotated for scraping; the scraper reaches each metrics port and nothing else. */
export function checkMetrics(objects, gatewayPort = 9464) {
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

export function checkMigrationHook(objects, { databaseKeys }) {
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
    equal(
      [container.workingDir, container.command],
      [workdirOf(`${service}-svc`), ['node', 'dist/main.js', 'migrate']],
      `${service} migrate command, in the image's folder`,
    );
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
