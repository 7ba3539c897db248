// Egress ports follow the URLs.
import { test } from 'node:test';
import { checkEgressRules, peersOf } from './checks.mjs';
import { equal, fullname, named, render } from './kit.mjs';

// Each egress rule allows the port of the URL its app connects to (nats.url,
// s3.endpoint: their own port, else the scheme's default), not a port of the
// values that the URL may have left behind. PostgreSQL's and Redis's URLs are
// in Secrets the chart cannot read: their ports are networkPolicy.egress.<store>.ports.
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
  test(`egress ports: ${variant.name}`, () => {
    const objects = render(variant.args, variant.name);
    const config = named(objects, 'ConfigMap', fullname('config')).data;
    for (const [key, value] of Object.entries(variant.config)) equal(config[key], value, `ConfigMap ${key} (the URL the apps connect to)`);
    checkEgressRules(objects, variant.egress);
  });
}
