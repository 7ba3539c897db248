#!/usr/bin/env node
// `npm run images`: builds the six images with buildah and runs them with
// podman against this machine's servers, as a cluster would run them, then
// checks them and removes the containers.
//
//   1. the base image when it is missing (scripts/containers/base-image.sh)
//   2. localhost/vault-<app>:<tag> for each app (build-images.mjs: the images of
//      the Dockerfile for each APP, from the workspace built here, layers made only
//      when their inputs change)
//   3. the migrations: `node dist/main.js migrate` with each service's image
//   4. the six containers, read-only root filesystem, a tmpfs at /tmp, uid
//      10001, no capabilities, on the host's network (gateway on 3500,
//      services' health on 3601..3605)
//   5. /health/live and /health/ready of each; the gateway serves the web app
//      and signs the owner in (POST /api/login, then GET /api/user)
//
// Servers: PostgreSQL (database vault_images, made anew each run), Redis
// (its database 9, emptied each run), MinIO (scripts/s3-server/start.sh when
// it does not answer; bucket vault-images) and a private nats-server with
// JetStream on 4622, so that these services join no other run's queue groups
// or streams. Each can be named instead: IMAGES_DATABASE_URL, IMAGES_REDIS_URL,
// IMAGES_NATS_URL, S3_ENDPOINT (+ S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY).
//
//   npm run images [-- --keep] [-- --skip-build] [-- --prune]
//     --keep        leave the containers (and the private NATS) running
//     --skip-build  use the images already built
//     --prune       afterwards, remove the build cache's dangling images (disk)
//
// Settings of buildah and podman: scripts/containers/env.sh.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { VAULT_SERVICES } from '../lib/services.mjs';
import { tcpAnswers } from '../lib/tcp-answers.mjs';
import { buildImages, containersEnv } from './build-images.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = new Set(process.argv.slice(2));
for (const arg of args) {
  if (!['--keep', '--skip-build', '--prune'].includes(arg)) {
    process.stderr.write(`images: unknown option ${arg} (--keep, --skip-build, --prune)\n`);
    process.exit(2);
  }
}
const keep = args.has('--keep');
const TAG = process.env.VAULT_IMAGE_TAG ?? 'local';
const GATEWAY_PORT = 3500;
const NATS_PORT = 4622;
// Each service's health port after the gateway's, as a local distributed stack places them.
const APPS = [
  ...VAULT_SERVICES.map(({ app, name, healthPortOffset }) => ({ app, service: name, port: GATEWAY_PORT + healthPortOffset })),
  { app: 'gateway', port: GATEWAY_PORT },
];
const image = (app) => `localhost/vault-${app}:${TAG}`;
const container = (app) => `vault-images-${app}`;

// ---------------------------------------------------------------- plumbing

/** The environment of scripts/containers/env.sh, as build-images.mjs chose it (the same image store). */
const env = containersEnv();
const logs = join(env.VAULT_CONTAINERS_DIR, 'logs');
mkdirSync(logs, { recursive: true });

const say = (text) => process.stdout.write(`images: ${text}\n`);
function fail(text) {
  process.stderr.write(`images: ${text}\n`);
  cleanup();
  process.exit(1);
}

/** A command whose output goes to a log file; its tail is shown when it fails. */
function logged(name, command, commandArgs) {
  const path = join(logs, `${name}.log`);
  const fd = openSync(path, 'w');
  const started = Date.now();
  const result = spawnSync(command, commandArgs, { cwd: root, env, stdio: ['ignore', fd, fd] });
  const seconds = (Date.now() - started) / 1000;
  if (result.status !== 0) {
    const tail = readFileSync(path, 'utf8').trimEnd().split('\n').slice(-25).join('\n');
    fail(`${command} ${commandArgs.slice(0, 3).join(' ')} ... failed (${path}):\n${tail}`);
  }
  return { seconds, path };
}
const quiet = (command, commandArgs) => spawnSync(command, commandArgs, { cwd: root, env, encoding: 'utf8' });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, seconds, probe) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  while (Date.now() < deadline) {
    try {
      last = await probe();
      if (last?.ok) return last;
    } catch (error) {
      last = { ok: false, detail: error.cause?.code ?? error.message };
    }
    await sleep(500);
  }
  return { ok: false, detail: `${what}: not within ${seconds} s (${last?.detail ?? 'no answer'})` };
}

let nats;
/** This script's containers, whatever run started them. */
function removeContainers() {
  const names = quiet('podman', ['ps', '-a', '--format', '{{.Names}}']).stdout?.split('\n') ?? [];
  const ours = names.filter((n) => n.startsWith('vault-images-'));
  if (ours.length > 0) quiet('podman', ['rm', '-f', '-t', '5', ...ours]);
}
function cleanup() {
  if (keep) return;
  removeContainers();
  if (nats && nats.exitCode === null) nats.kill('SIGTERM');
}
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

// ---------------------------------------------------------------- 1, 2: images

const started = Date.now();
const report = { images: [], checks: [] };
if (!args.has('--skip-build')) {
  // The base, the shared dependency layer and a thin layer per app, each made only when its inputs changed.
  try {
    const { timings } = buildImages({ tag: TAG, log: say });
    for (const { app } of APPS) report.images.push({ app, seconds: timings[app] ?? 0 });
  } catch (error) {
    fail(error.message);
  }
} else {
  for (const { app } of APPS) report.images.push({ app, seconds: null });
}
for (const entry of report.images) {
  const inspected = quiet('podman', ['image', 'inspect', '--format', '{{.Size}} {{.User}} {{.Config.WorkingDir}}', image(entry.app)]);
  if (inspected.status !== 0) fail(`no image ${image(entry.app)}: build it first (without --skip-build)`);
  const [size, user, workdir] = inspected.stdout.trim().split(' ');
  Object.assign(entry, { size: Number(size), user, workdir });
}

// ---------------------------------------------------------------- servers

removeContainers(); // what a --keep run left behind
const databaseUrl = process.env.IMAGES_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vault_images';
const redisUrl = process.env.IMAGES_REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const s3 = {
  endpoint: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:9000',
  accessKey: process.env.S3_ACCESS_KEY_ID ?? 'vault-test',
  secretKey: process.env.S3_SECRET_ACCESS_KEY ?? 'vault-test-secret',
};

{
  // A new vault each run: the database made anew.
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query(`drop database if exists "${name.replaceAll('"', '""')}" with (force)`);
    await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    fail(`PostgreSQL at ${admin.host}: ${error.message}`);
  } finally {
    await client.end().catch(() => {});
  }
}
{
  // Redis: this run's database index emptied (sessions, sign-in counters).
  const url = new URL(redisUrl);
  const db = url.pathname.slice(1) || '0';
  const flushed = await new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 6379), timeout: 2000 });
    let answer = '';
    socket.on('connect', () => socket.write(`*2\r\n$6\r\nSELECT\r\n$${db.length}\r\n${db}\r\n*1\r\n$7\r\nFLUSHDB\r\n`));
    socket.on('data', (chunk) => {
      answer += chunk;
      if (answer.split('\r\n').filter(Boolean).length >= 2) {
        socket.end();
        resolve(answer);
      }
    });
    socket.on('error', (error) => resolve(`-${error.message}`));
    socket.on('timeout', () => {
      socket.destroy();
      resolve('-timeout');
    });
  });
  if (flushed.includes('-')) fail(`Redis at ${url.host}: ${flushed.trim()}`);
}
let natsUrl = process.env.IMAGES_NATS_URL;
if (!natsUrl) {
  natsUrl = `nats://127.0.0.1:${NATS_PORT}`;
  if (!(await tcpAnswers('127.0.0.1', NATS_PORT))) {
    const store = join(env.VAULT_CONTAINERS_DIR, 'nats');
    rmSync(store, { recursive: true, force: true });
    const log = openSync(join(logs, 'nats.log'), 'w');
    nats = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(NATS_PORT), '-js', '-sd', store], { stdio: ['ignore', log, log], detached: keep });
    nats.on('error', (error) => fail(`nats-server: ${error.message} (install Debian's nats-server, or set IMAGES_NATS_URL)`));
    if (keep) nats.unref();
    const up = await until('nats-server', 15, async () => ({ ok: await tcpAnswers('127.0.0.1', NATS_PORT) }));
    if (!up.ok) fail(up.detail);
  }
}
if (!(await until('MinIO', 3, async () => ({ ok: (await fetch(`${s3.endpoint}/minio/health/live`)).ok }))).ok) {
  if (process.env.S3_ENDPOINT) fail(`no S3 server answers at ${s3.endpoint}`);
  say('starting MinIO (scripts/s3-server/start.sh) ...');
  logged('s3-server', 'bash', ['scripts/s3-server/start.sh']);
}
say(
  `servers: ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}, ${natsUrl}, ${new URL(redisUrl).host}${new URL(redisUrl).pathname}, ${s3.endpoint}`,
);

// ---------------------------------------------------------------- 3, 4: migrations, containers

const password = randomBytes(12).toString('base64url');
const common = {
  VAULT_MODE: 'distributed',
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl,
  NATS_URL: natsUrl,
  LOG_LEVEL: 'info',
};
const appEnv = {
  gateway: { REDIS_URL: redisUrl, S3_ENDPOINT: s3.endpoint },
  'auth-svc': { VAULT_OWNER_USERNAME: 'owner', VAULT_OWNER_NAME: 'Image Check', VAULT_OWNER_PASSWORD: password },
  'journal-svc': { VAULT_MASTER_KEY: randomBytes(32).toString('base64') },
  'media-svc': { S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'vault-images', S3_ACCESS_KEY_ID: s3.accessKey, S3_SECRET_ACCESS_KEY: s3.secretKey },
};
/** As the chart runs a pod: read-only root, /tmp a tmpfs, uid 10001, no capabilities, no privilege escalation. */
function podmanRun(app, { name, options = [], extra = {}, command = [] }) {
  const vars = { ...common, ...appEnv[app], ...extra };
  return [
    'run',
    '--name',
    name,
    ...options,
    '--network',
    'host',
    '--read-only',
    '--tmpfs',
    '/tmp:rw,nosuid,nodev,size=64m',
    '--user',
    '10001:10001',
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    ...Object.entries(vars).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    image(app),
    ...command,
  ];
}

// The five at once, as the chart's hook Jobs run (each service's migrations under one advisory lock).
const migrations = await Promise.all(
  APPS.filter((a) => 'service' in a).map(({ app }) => {
    const path = join(logs, `migrate-${app}.log`);
    const fd = openSync(path, 'w');
    const begun = Date.now();
    const child = spawn('podman', podmanRun(app, { name: container(`migrate-${app}`), options: ['--rm'], command: ['node', 'dist/main.js', 'migrate'] }), {
      cwd: root,
      env,
      stdio: ['ignore', fd, fd],
    });
    return new Promise((resolve) => {
      child.on('error', (error) => resolve({ app, ok: false, detail: error.message }));
      child.on('exit', (code) => {
        const tail = readFileSync(path, 'utf8').trimEnd().split('\n').slice(-5).join('\n        ');
        resolve({ app, ok: code === 0, detail: code === 0 ? `${((Date.now() - begun) / 1000).toFixed(1)} s` : `exit ${code} (${path}):\n        ${tail}` });
      });
    });
  }),
);
for (const { app, ok, detail } of migrations) report.checks.push({ name: `${app}: node dist/main.js migrate`, ok, detail });
if (migrations.some((m) => !m.ok)) {
  for (const c of report.checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}: ${c.detail}\n`);
  fail('a migration failed');
}
for (const { app, port } of APPS) {
  const run = quiet('podman', podmanRun(app, { name: container(app), options: ['-d'], extra: { PORT: String(port), VAULT_SKIP_MIGRATIONS: 'true' } }));
  if (run.status !== 0) fail(`podman run ${container(app)}: ${run.stderr}`);
}
say(`started ${APPS.map((a) => container(a.app)).join(', ')}`);

// ---------------------------------------------------------------- 5: checks

const check = (name, result) => report.checks.push({ name, ...result });
for (const { app, port } of APPS) {
  for (const path of ['/health/live', '/health/ready']) {
    const result = await until(`${app} ${path}`, 60, async () => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(3000) });
      return { ok: res.status === 200, detail: `${res.status} ${(await res.text()).slice(0, 120)}` };
    });
    check(`${app}: GET :${port}${path}`, result);
  }
}
const inspect = quiet('podman', ['inspect', '--format', '{{.Name}} {{.Config.User}} {{.HostConfig.ReadonlyRootfs}}', ...APPS.map((a) => container(a.app))]);
for (const line of inspect.stdout.trim().split('\n').filter(Boolean)) {
  const [name, user, readOnly] = line.split(' ');
  check(`${name}: runs as ${user}, read-only root filesystem`, {
    ok: user.startsWith('10001') && readOnly === 'true',
    detail: `user ${user}, read-only ${readOnly}`,
  });
}
{
  const write = quiet('podman', ['exec', container('gateway'), 'node', '-e', "require('fs').writeFileSync('/app/x', 'x')"]);
  check('gateway: the app cannot write its root filesystem', {
    ok: write.status !== 0 && /EROFS|read-only/i.test(write.stderr),
    detail:
      write.stderr
        .split('\n')
        .find((l) => /Error/.test(l))
        ?.trim() ?? `exit ${write.status}`,
  });
}

const base = `http://127.0.0.1:${GATEWAY_PORT}`;
const headers = { origin: base, 'content-type': 'application/json' };
async function gatewayChecks() {
  const page = await fetch(`${base}/`);
  const html = await page.text();
  const script = html.match(/<script[^>]+src="([^"]+)"/)?.[1];
  check('gateway: GET / serves the web app (the login screen)', {
    ok: page.status === 200 && page.headers.get('content-type')?.startsWith('text/html') && html.includes('<title>VAULT</title>') && Boolean(script),
    detail: `${page.status} ${page.headers.get('content-type')}, ${html.length} bytes, script ${script}`,
  });
  if (script) {
    const js = await fetch(new URL(script, base));
    check(`gateway: GET ${script}`, {
      ok: js.status === 200 && /javascript/.test(js.headers.get('content-type') ?? ''),
      detail: `${js.status} ${js.headers.get('content-type')} ${(await js.arrayBuffer()).byteLength} bytes`,
    });
  }
  const anonymous = await fetch(`${base}/api/user`);
  check('gateway: GET /api/user before signing in', {
    ok: anonymous.status === 401 || (anonymous.ok && (await anonymous.clone().json()).signedIn === false),
    detail: `${anonymous.status} ${(await anonymous.text()).slice(0, 100)}`,
  });
  const login = await fetch(`${base}/api/login`, { method: 'POST', headers, body: JSON.stringify({ username: 'owner', password }) });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  check('gateway: POST /api/login as the owner', {
    ok: login.status === 200 && cookie.length > 0,
    detail: `${login.status}, cookie ${cookie ? `${cookie.split('=')[0]}=…` : 'none'}`,
  });
  const user = await fetch(`${base}/api/user`, { headers: { cookie } });
  const body = await user.text();
  check('gateway: GET /api/user with the session', { ok: user.status === 200 && JSON.parse(body).signedIn === true, detail: `${user.status} ${body}` });
}
await gatewayChecks().catch((error) => check('gateway: web app and sign-in', { ok: false, detail: error.message }));

// ---------------------------------------------------------------- report

const failed = report.checks.filter((c) => !c.ok);
if (failed.length > 0) {
  for (const { app } of APPS) {
    const out = quiet('podman', ['logs', '--tail', '15', container(app)]);
    process.stdout.write(`\n--- podman logs ${container(app)} (last 15 lines)\n${out.stdout}${out.stderr}`);
  }
}
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
process.stdout.write('\nimage                                   size     build   user   workdir\n');
for (const i of report.images) {
  process.stdout.write(
    `${image(i.app).padEnd(40)}${mb(i.size).padStart(7)}  ${i.seconds === null ? '     -' : `${i.seconds.toFixed(0).padStart(4)} s`}   ${i.user.padEnd(6)} ${i.workdir}\n`,
  );
}
process.stdout.write('\n');
for (const c of report.checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}${c.detail ? `: ${c.detail}` : ''}\n`);
process.stdout.write(`\nimages: ${report.checks.length - failed.length} passed, ${failed.length} failed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);

if (keep) {
  say(`kept running: gateway http://127.0.0.1:${GATEWAY_PORT}/ (owner / ${password})`);
  say(`remove them with: . scripts/containers/env.sh && podman rm -f ${APPS.map((a) => container(a.app)).join(' ')}`);
  if (nats) say(`private NATS pid ${nats.pid} on ${natsUrl}: kill ${nats.pid}`);
} else {
  cleanup();
}
if (args.has('--prune')) {
  const pruned = quiet('podman', ['image', 'prune', '-f']);
  say(`pruned ${pruned.stdout.trim().split('\n').filter(Boolean).length} dangling images (the next build starts cold)`);
}
process.exit(failed.length > 0 ? 1 : 0);
