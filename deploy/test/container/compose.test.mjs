// `npm run test:container`: the two compose files at the repository's root
// brought up by podman-compose (Debian's, as a self-hoster's compose tool) with
// the images made here, and the owner signed in through each: compose.yaml (the
// embedded image; the password its first start prints) and
// compose.distributed.yaml (the six apps with PostgreSQL, Redis, NATS and
// MinIO; the secrets as its .env would give them). The stores' images are the
// integration tier's local ones (scripts/containers/servers/build.sh), named by
// the compose file's image variables as an operator names a registry's.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { buildEmbeddedImage, buildImages, containersEnv } from '../../../scripts/containers/build-images.mjs';
import { DISTRIBUTED_APPS } from '../../../scripts/lib/services.mjs';
import { GatewayClient, ONE_PIXEL_PNG as PNG } from '../cluster/gateway-client.mjs';
import { freePort } from '../../../scripts/lib/free-port.mjs';
import { waitUntil } from '../../../scripts/lib/wait-until.mjs';

const env = containersEnv();
const project = `vault-compose-check-${process.pid}`;
// The integration tier's images of the stores (scripts/containers/servers/build.sh), for the distributed file's variables.
const STORE_IMAGES = {
  VAULT_POSTGRES_IMAGE: 'localhost/vault-it-postgres:15',
  VAULT_REDIS_IMAGE: 'localhost/vault-it-redis:7.0',
  VAULT_NATS_IMAGE: 'localhost/vault-it-nats:2.9',
  VAULT_MINIO_IMAGE: 'localhost/vault-it-minio:latest',
};
const composed = [];

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

function run(command, args, { allowFail = false, extraEnv = {} } = {}) {
  const result = spawnSync(command, args, { env: { ...env, ...extraEnv }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0 && !allowFail)
    throw new Error(`${command} ${args.join(' ')}: ${`${result.stdout}${result.stderr}`.trim().split('\n').slice(-15).join('\n')}`);
  return result;
}

/**
 * The stores' images where this run's containers are: the integration tier builds them in the
 * project's default store (vfs), the app images live in overlay's where it works; copied across once.
 */
function ensureStoreImages() {
  const vfs = { ...env, VAULT_CONTAINERS_DRIVER: 'vfs' };
  for (const image of Object.values(STORE_IMAGES)) {
    if (run('podman', ['image', 'exists', image], { allowFail: true }).status === 0) continue;
    const copied = spawnSync(
      'bash',
      [
        '-c',
        `set -o pipefail; (. scripts/containers/env.sh && podman save --format oci-archive "$IMAGE") | (VAULT_CONTAINERS_DRIVER="$TARGET" && . scripts/containers/env.sh && podman load)`,
      ],
      { env: { ...vfs, IMAGE: image, TARGET: env.VAULT_CONTAINERS_DRIVER }, encoding: 'utf8' },
    );
    assert(copied.status === 0, `${image}: not in either store (scripts/containers/servers/build.sh makes it): ${copied.stderr.trim().slice(-500)}`);
  }
}

/** podman-compose with `file`, in this run's project; `variables` stand for the compose file's .env. */
function compose(file, variables, args) {
  return run('podman-compose', ['-f', file, '-p', project, ...args], { extraEnv: variables });
}

/** Seconds until `check` holds (waitUntil's polling and its failure message). */
async function until(what, check, timeoutMs) {
  const started = performance.now();
  await waitUntil(what, check, { timeoutMs, intervalMs: 500 });
  return (performance.now() - started) / 1000;
}

function client(port) {
  return new GatewayClient('127.0.0.1', port, `127.0.0.1:${port}`);
}

after(() => {
  for (const { file, variables } of composed) run('podman-compose', ['-f', file, '-p', project, 'down', '-v'], { allowFail: true, extraEnv: variables });
  // podman-compose's down leaves the project's network.
  run('podman', ['network', 'rm', `${project}_default`], { allowFail: true });
});

test('compose.yaml (the embedded image): up, ready, the owner signs in with the printed password, the HEALTHCHECK passes', async (t) => {
  const image = buildEmbeddedImage({ log: (line) => t.diagnostic(line) });
  const port = await freePort();
  const variables = { VAULT_IMAGE: image, VAULT_PORT: String(port) };
  composed.push({ file: 'compose.yaml', variables });
  compose('compose.yaml', variables, ['up', '-d', '--no-build']);
  const vault = client(port);
  const seconds = await until('ready', async () => (await vault.send('GET', '/health/ready', undefined, { timeoutMs: 2000 })).status === 200, 60_000);
  const container = `${project}_vault_1`;
  const logs = run('podman', ['logs', container]);
  const printed = `${logs.stdout}${logs.stderr}`.match(/can sign in with this password:\s+(\S+)/);
  assert(printed, 'no first-run password in the log');
  assert(/Change it with: docker compose run --rm -i vault vault set-password/.test(logs.stdout), 'the hint does not name the compose command (VAULT_COMMAND)');
  await vault.login('owner', printed[1]);
  const target = await vault.send('POST', '/api/targets', { title: 'From compose' });
  assert(target.status === 201, `${target.status} ${target.text}`);
  // No systemd here to schedule it: run once by hand, as the engine would.
  run('podman', ['healthcheck', 'run', container]);
  t.diagnostic(`ready in ${seconds.toFixed(1)} s; signed in; healthy`);
});

test('compose.distributed.yaml: up, every app ready, the owner signs in, a target, an entry and a photo', async (t) => {
  const { images } = buildImages({ log: (line) => t.diagnostic(line) });
  const tag = images[0].split(':').at(-1);
  ensureStoreImages();
  const [port, s3Port] = [await freePort(), await freePort()];
  // What the .env of the file's header holds: fresh secrets.
  const secret = () => randomBytes(24).toString('hex');
  /** @type {Record<string, string>} */
  const variables = {
    ...STORE_IMAGES,
    VAULT_IMAGE_PREFIX: 'localhost/vault-',
    VAULT_TAG: tag,
    VAULT_PORT: String(port),
    VAULT_S3_PORT: String(s3Port),
    VAULT_S3_PUBLIC_URL: `http://127.0.0.1:${s3Port}`,
    VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
    ...Object.fromEntries(
      [
        'POSTGRES_PASSWORD',
        'REDIS_PASSWORD',
        'S3_SECRET_ACCESS_KEY',
        'VAULT_OWNER_PASSWORD',
        ...['AUTH', 'PLANNER', 'JOURNAL', 'MEDIA', 'AUDIT'].map((s) => `${s}_DATABASE_PASSWORD`),
      ].map((name) => [name, secret()]),
    ),
  };
  composed.push({ file: 'compose.distributed.yaml', variables });
  compose('compose.distributed.yaml', variables, ['up', '-d', '--no-build']);
  const gateway = client(port);
  // Each app answers ready on its own port inside its container (the gateway's public one, a service's health port).
  const readyInside = (app) => {
    const url = `http://127.0.0.1:${app === 'gateway' ? 3000 : 8080}/health/ready`;
    const script = `fetch('${url}').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))`;
    return run('podman', ['exec', `${project}_${app}_1`, 'node', '-e', script], { allowFail: true }).status === 0;
  };
  const seconds = await until(`every app ready (${DISTRIBUTED_APPS.join(', ')})`, async () => DISTRIBUTED_APPS.every(readyInside), 180_000);
  await gateway.login('owner', variables.VAULT_OWNER_PASSWORD);
  const target = await gateway.send('POST', '/api/targets', { title: 'Distributed by compose' });
  assert(target.status === 201, `POST /api/targets: ${target.status} ${target.text}`);
  const entry = await gateway.send('POST', '/api/journal', { content: 'Through NATS to journal-svc.' });
  assert(entry.status === 201, `POST /api/journal: ${entry.status} ${entry.text}`);
  const issued = await gateway.send('POST', '/api/objects/upload');
  assert(issued.status === 200 && issued.json?.uploadURL.startsWith(variables.VAULT_S3_PUBLIC_URL), `${issued.status} ${issued.text}`);
  const put = await fetch(issued.json.uploadURL, { method: 'PUT', body: PNG, headers: { 'content-type': 'image/png', ...issued.json.uploadHeaders } });
  assert(put.status === 200, `PUT to MinIO: ${put.status} ${await put.text()}`);
  const photo = await gateway.send('PUT', '/api/photos', { photoURL: issued.json.uploadURL });
  assert(photo.status === 200 && photo.json?.objectPath, `PUT /api/photos: ${photo.status} ${photo.text}`);
  const served = await gateway.send('GET', photo.json.objectPath);
  assert(served.status === 200 && served.buffer.equals(PNG), `GET ${photo.json.objectPath}: ${served.status}`);
  t.diagnostic(`every app ready in ${seconds.toFixed(1)} s; signed in; a target, an entry and a photo`);
});
