// The compose files at the repository's root, held to what they repeat: the
// Dockerfile's stages and build arguments, the list of services, their roles.
// `npm run test:container` brings both up with podman-compose.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { buildArgs, EMBEDDED_STAGE, finalStageLines } from '../../scripts/containers/dockerfile.mjs';
import { VAULT_SERVICES } from '../../scripts/lib/services.mjs';
import { APPS, assert, equal, root } from './kit.mjs';

const composeFile = (name) => parse(readFileSync(join(root, name), 'utf8'), { merge: true });
const exposed = (target) =>
  finalStageLines(target)
    .find((line) => line.startsWith('EXPOSE '))
    ?.split(' ')[1];
const STORES = ['postgres', 'service-roles', 'redis', 'nats', 'minio'];

test('compose.yaml: the embedded image (the Dockerfile stage vault), read-only, its data in a volume, the port it exposes', () => {
  const { services, volumes } = composeFile('compose.yaml');
  equal(Object.keys(services), ['vault'], 'services');
  const vault = services.vault;
  equal(vault.build, { context: '.', target: EMBEDDED_STAGE }, 'build');
  equal([vault.read_only, vault.tmpfs], [true, ['/tmp']], 'read_only, tmpfs');
  equal(vault.volumes, ['vault-data:/data'], 'volumes');
  assert(Object.hasOwn(volumes, 'vault-data'), 'the volume vault-data is not declared');
  assert(vault.ports.length === 1 && vault.ports[0].endsWith(`:${exposed(EMBEDDED_STAGE)}`), `ports ${vault.ports}: not to the image's EXPOSE`);
  assert(/ vault$/.test(vault.environment.VAULT_COMMAND), 'VAULT_COMMAND: the service, then the command line of the image, vault');
});

test('compose.distributed.yaml: every app of the distributed mode, built from the Dockerfile with its arguments, and the stores', () => {
  const { services } = composeFile('compose.distributed.yaml');
  equal(Object.keys(services).sort(), [...APPS, ...STORES].sort(), 'services');
  for (const app of APPS) {
    const service = services[app];
    const { APP, PORT } = buildArgs(app);
    equal(service.build, { context: '.', args: { APP, ...(PORT ? { PORT } : {}) } }, `${app}: build`);
    assert(service.image.endsWith(`${app}:\${VAULT_TAG:-latest}`), `${app}: image ${service.image}`);
    equal([service.read_only, service.tmpfs], [true, ['/tmp']], `${app}: read_only, tmpfs`);
    assert(service.environment.NATS_URL === 'nats://nats:4222', `${app}: NATS_URL`);
  }
  assert(services.gateway.ports[0].endsWith(`:${exposed('gateway')}`), `gateway: ports ${services.gateway.ports}`);
});

test('compose.distributed.yaml: each service connects as its own role, and service-roles makes exactly those (ADR 0008)', () => {
  const { services } = composeFile('compose.distributed.yaml');
  const roles = JSON.parse(services['service-roles'].environment.VAULT_SERVICE_ROLES);
  equal(
    roles,
    VAULT_SERVICES.map(({ name, schema }) => ({ schema, role: `vault_${schema}`, password: `\${${name.toUpperCase()}_DATABASE_PASSWORD}` })),
    'VAULT_SERVICE_ROLES',
  );
  for (const { name, app, schema } of VAULT_SERVICES) {
    const url = services[app].environment.DATABASE_URL;
    assert(
      url.startsWith(`postgres://vault_${schema}:\${${name.toUpperCase()}_DATABASE_PASSWORD:?`) && url.endsWith('@postgres:5432/vault'),
      `${app}: DATABASE_URL ${url}`,
    );
  }
  const withSecrets = Object.entries(services)
    .filter(([, service]) => JSON.stringify(service.environment ?? {}).includes('POSTGRES_PASSWORD'))
    .map(([name]) => name);
  equal(withSecrets.sort(), ['postgres', 'service-roles'], "the superuser's password reaches");
});
