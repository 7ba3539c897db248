// Other branches of the templates, each rendered, validated and locked down.
import { test } from 'node:test';
import { checkPodSecurity } from './checks.mjs';
import { APPS, assert, envOf, equal, fullname, named, render } from './kit.mjs';

const variants = [
  {
    name: 'services with 2 replicas: a PodDisruptionBudget each (one pod evicted at a time); one replica, none; preStopSeconds=0 leaves the gateway no wait at all',
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
      const gateway = named(objects, 'Deployment', fullname('gateway')).spec.template.spec;
      equal(gateway.containers[0].lifecycle, undefined, 'gateway lifecycle');
      equal(envOf(gateway.containers[0]).VAULT_STOP_DELAY_SECONDS, undefined, 'gateway VAULT_STOP_DELAY_SECONDS');
      equal(gateway.terminationGracePeriodSeconds, 30, 'gateway terminationGracePeriodSeconds');
    },
  },
  {
    name: 'Kubernetes before 1.30 (no preStop sleep action): the gateway waits preStopSeconds itself after the SIGTERM, answering not ready; no program of the image is run',
    args: ['-f', 'deploy/helm/values-production.yaml', '--kube-version', '1.29.0', '--set', 'gateway.preStopSeconds=12'],
    expect: (objects) => {
      const gateway = named(objects, 'Deployment', fullname('gateway')).spec.template.spec;
      equal(gateway.containers[0].lifecycle, undefined, 'gateway lifecycle');
      equal(envOf(gateway.containers[0]).VAULT_STOP_DELAY_SECONDS, '12', 'gateway VAULT_STOP_DELAY_SECONDS');
      equal(gateway.terminationGracePeriodSeconds, 12 + 30, 'gateway terminationGracePeriodSeconds');
      for (const app of APPS.filter((a) => a !== 'gateway'))
        equal(
          envOf(named(objects, 'Deployment', fullname(app)).spec.template.spec.containers[0]).VAULT_STOP_DELAY_SECONDS,
          undefined,
          `${app} VAULT_STOP_DELAY_SECONDS`,
        );
    },
  },
  {
    name: 'Kubernetes 1.30, the first with the preStop sleep action: the kubelet waits, the gateway does not',
    args: ['-f', 'deploy/helm/values-production.yaml', '--kube-version', '1.30.0'],
    expect: (objects) => {
      const gateway = named(objects, 'Deployment', fullname('gateway')).spec.template.spec;
      equal(gateway.containers[0].lifecycle, { preStop: { sleep: { seconds: 10 } } }, 'gateway lifecycle');
      equal(envOf(gateway.containers[0]).VAULT_STOP_DELAY_SECONDS, undefined, 'gateway VAULT_STOP_DELAY_SECONDS');
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
  test(`renders and validates: ${variant.name}`, () => {
    const objects = render(variant.args, variant.name);
    checkPodSecurity(objects);
    variant.expect(objects);
  });
}
