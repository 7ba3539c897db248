// Values the chart refuses, each saying why (the backups' own: backup.test.mjs).
import { test } from 'node:test';
import { assert, template } from './kit.mjs';

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
];
for (const r of refused) {
  test(`refuses ${r.name}, saying why`, () => {
    const result = template(r.args);
    assert(result.status !== 0, 'helm template succeeded');
    assert(result.stderr.includes(r.message), `expected "${r.message}" in:\n${result.stderr}`);
  });
}
test('the checks name every problem at once', () => {
  const result = template(['--set', 'trial.enabled=false']);
  for (const field of ['image.registry', 'secrets.existingSecret', 'nats.url', 's3.endpoint'])
    assert(result.stderr.includes(`- ${field}:`), `${field} not named in:\n${result.stderr}`);
});
