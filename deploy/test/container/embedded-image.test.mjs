// `npm run test:container`: the embedded image (the Dockerfile's stage vault) as
// a self-hoster runs it: built here (scripts/containers/build-images.mjs
// --embedded), run by podman with a named volume and a read-only root
// filesystem, signed in with the password its first start prints to the log;
// a target, an entry and a photo survive a stop and a start; killed outright
// (SIGKILL) during writes ten times, it starts again on its volume every time
// and no acknowledged write is lost.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildEmbeddedImage, containersEnv } from '../../../scripts/containers/build-images.mjs';
import { GatewayClient, ONE_PIXEL_PNG as PNG } from '../cluster/gateway-client.mjs';
import { freePort } from '../../../scripts/lib/free-port.mjs';
import { answers200, waitUntil } from '../../../scripts/lib/wait-until.mjs';

const KILL_ROUNDS = 10;
// Docker's and podman's default stop timeout: the vault and its PostgreSQL must be down within it.
const STOP_TIMEOUT_SECONDS = 10;
const env = containersEnv();
const name = `vault-image-check-${process.pid}`;
const volume = `${name}-data`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let image;
let port;
let owner;
let password;

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

function podman(args, { allowFail = false } = {}) {
  const result = spawnSync('podman', args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0 && !allowFail) throw new Error(`podman ${args.join(' ')}: ${result.stderr.trim().split('\n').slice(-5).join('\n')}`);
  return result;
}

/** The same, without blocking the event loop (the writes of a kill round go on meanwhile). */
function podmanAsync(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('podman', args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`podman ${args.join(' ')}: ${stderr.trim()}`))));
  });
}

/** Until the vault answers ready; the seconds it took. */
async function ready(timeoutMs = 60_000) {
  const started = performance.now();
  const url = `http://127.0.0.1:${port}/health/ready`;
  const stop = () => {
    const state = podman(['inspect', name, '--format', '{{.State.Status}}'], { allowFail: true }).stdout.trim();
    return state === 'running' ? undefined : `the container ${state}:\n${logs().split('\n').slice(-20).join('\n')}\n`;
  };
  await waitUntil(url, () => answers200(url), { timeoutMs, stop });
  return (performance.now() - started) / 1000;
}

function logs() {
  const result = podman(['logs', name], { allowFail: true });
  return `${result.stdout}${result.stderr}`;
}

/** What a container of the image reports of itself, by its own Node. */
function inside(script) {
  return podman(['exec', name, 'node', '-e', script]).stdout.trim();
}

async function signIn() {
  owner = new GatewayClient('127.0.0.1', port, `127.0.0.1:${port}`);
  await owner.login('owner', password);
}

/** Every target's and entry's id the vault holds now. */
async function storedIds() {
  const targets = await owner.send('GET', '/api/targets');
  assert(targets.status === 200, `GET /api/targets: ${targets.status} ${targets.text}`);
  const ids = new Set(targets.json.map((t) => t.id));
  for (let offset = 0; ; offset += 500) {
    const page = await owner.send('GET', `/api/journal?limit=500&offset=${offset}`);
    assert(page.status === 200, `GET /api/journal: ${page.status} ${page.text}`);
    for (const entry of page.json) ids.add(entry.id);
    if (page.json.length < 500) return ids;
  }
}

before(() => {
  image = buildEmbeddedImage({ log: (line) => process.stdout.write(`# ${line}\n`) });
});

after(() => {
  podman(['rm', '--force', '--time', '0', name], { allowFail: true });
  podman(['volume', 'rm', '--force', volume], { allowFail: true });
});

test('the image: under 250 MB, with no package manager, shell tools or npm', (t) => {
  const bytes = Number(podman(['image', 'inspect', image, '--format', '{{.Size}}']).stdout.trim());
  assert(bytes < 250e6, `${(bytes / 1e6).toFixed(0)} MB`);
  const paths = [
    '/usr/local/bin/node',
    '/usr/bin/tini',
    '/usr/bin/sh',
    '/usr/bin/apt-get',
    '/usr/bin/dpkg',
    '/usr/bin/bash',
    '/usr/bin/ls',
    '/usr/local/bin/npm',
    '/usr/local/lib/node_modules',
  ];
  const check = `console.log(JSON.stringify(${JSON.stringify(paths)}.filter((p) => require('fs').existsSync(p))))`;
  const present = JSON.parse(podman(['run', '--rm', '--network', 'none', '--entrypoint', 'node', image, '-e', check]).stdout.trim());
  assert(JSON.stringify(present) === JSON.stringify(paths.slice(0, 3)), `in the image: ${present.join(', ')}`);
  t.diagnostic(`${(bytes / 1e6).toFixed(0)} MB`);
});

test('first start on a new volume, read-only root: the owner password printed once to the log, ready', async (t) => {
  port = await freePort();
  podman(['volume', 'create', volume]);
  podman(['create', '--name', name, '--read-only', '--env', 'HOST=127.0.0.1', '--env', `PORT=${port}`, '--volume', `${volume}:/data`, image]);
  podman(['start', name]);
  const seconds = await ready();
  const printed = logs().match(/can sign in with this password:\s+(\S+)/);
  assert(printed, `no first-run password in the log:\n${logs().slice(0, 2000)}`);
  password = printed[1];
  await signIn();
  t.diagnostic(`ready in ${seconds.toFixed(1)} s`);
});

test('the container runs as vault (10001) under tini, and cannot write its root filesystem', () => {
  const who = JSON.parse(inside('console.log(JSON.stringify({ uid: process.getuid(), gid: process.getgid() }))'));
  assert(who.uid === 10001 && who.gid === 10001, `runs as ${JSON.stringify(who)}`);
  const pid1 = inside("console.log(require('fs').readFileSync('/proc/1/cmdline', 'latin1').split('\\0')[0])");
  assert(pid1 === '/usr/bin/tini', `PID 1 is ${pid1}`);
  const readOnly = podman(['inspect', name, '--format', '{{.HostConfig.ReadonlyRootfs}}']).stdout.trim();
  assert(readOnly === 'true', `ReadonlyRootfs ${readOnly}`);
  const write = inside("try { require('fs').writeFileSync('/app/written', 'x'); console.log('written') } catch (e) { console.log(e.code) }");
  assert(write === 'EROFS', `writing /app: ${write}`);
});

test('a target, an entry and a photo; podman stop (PostgreSQL shut down cleanly in time), start: all there', async (t) => {
  const target = await owner.send('POST', '/api/targets', { title: 'Kept in the volume' });
  assert(target.status < 300 && target.json?.id, `${target.status} ${target.text}`);
  const entry = await owner.send('POST', '/api/journal', { content: 'Written in a container.' });
  assert(entry.status < 300 && entry.json?.id, `${entry.status} ${entry.text}`);
  const issued = await owner.send('POST', '/api/objects/upload');
  assert(issued.status === 200 && issued.json?.uploadURL, `${issued.status} ${issued.text}`);
  const upload = new URL(issued.json.uploadURL, `http://127.0.0.1:${port}`);
  const put = await owner.send('PUT', `${upload.pathname}${upload.search}`, PNG, { headers: { 'content-type': 'image/png', ...issued.json.uploadHeaders } });
  assert(put.status === 200, `PUT ${upload.pathname}: ${put.status} ${put.text}`);
  const photo = await owner.send('PUT', '/api/photos', { photoURL: issued.json.uploadURL });
  assert(photo.status === 200 && photo.json?.objectPath, `${photo.status} ${photo.text}`);

  const stopping = Date.now();
  podman(['stop', '--time', String(STOP_TIMEOUT_SECONDS), name]);
  const stopSeconds = (Date.now() - stopping) / 1000;
  assert(stopSeconds < STOP_TIMEOUT_SECONDS, `podman stop took ${stopSeconds.toFixed(1)} s: the vault was killed at the timeout`);
  const mountpoint = podman(['volume', 'inspect', volume, '--format', '{{.Mountpoint}}']).stdout.trim();
  const databaseLog = readFileSync(join(mountpoint, 'postgres/postgres.log'), 'utf8').trimEnd().split('\n');
  assert(/database system is shut down/.test(databaseLog.at(-1)), `PostgreSQL's log ends: ${databaseLog.slice(-3).join(' / ')}`);

  podman(['start', name]);
  const seconds = await ready();
  await signIn();
  const ids = await storedIds();
  assert(ids.has(target.json.id) && ids.has(entry.json.id), 'the target or the entry is gone');
  const served = await owner.send('GET', photo.json.objectPath);
  assert(served.status === 200 && served.buffer.equals(PNG), `GET ${photo.json.objectPath}: ${served.status}, ${served.buffer.length} bytes`);
  t.diagnostic(`stopped in ${stopSeconds.toFixed(1)} s; ready again in ${seconds.toFixed(1)} s`);
});

test(`killed outright (SIGKILL) during writes, ${KILL_ROUNDS} times: it starts again on its volume, no acknowledged write lost`, async (t) => {
  const acknowledged = [];
  const rounds = [];
  for (let round = 1; round <= KILL_ROUNDS; round++) {
    let writing = true;
    let sequence = 0;
    // Four writers, targets and entries in turn, until the kill ends them.
    const writer = async () => {
      while (writing) {
        const n = sequence++;
        const [path, body] = n % 2 === 0 ? ['/api/targets', { title: `round ${round} #${n}` }] : ['/api/journal', { content: `round ${round} entry ${n}` }];
        const answer = await owner.send('POST', path, body, { timeoutMs: 5000 }).catch(() => undefined);
        if (answer && answer.status < 300 && answer.json?.id) acknowledged.push({ round, id: answer.json.id });
        else if (answer && answer.status < 500) throw new Error(`POST ${path}: ${answer.status} ${answer.text}`);
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    await sleep(300 + Math.floor(Math.random() * 1200));
    await podmanAsync(['kill', '--signal', 'KILL', name]);
    writing = false;
    await Promise.all(writers);
    await podmanAsync(['wait', name]);
    podman(['start', name]);
    const seconds = await ready();
    await signIn();
    const ids = await storedIds();
    const lost = acknowledged.filter((write) => !ids.has(write.id));
    assert(lost.length === 0, `round ${round}: ${lost.length} acknowledged writes lost (${JSON.stringify(lost.slice(0, 5))})`);
    rounds.push(`${acknowledged.filter((write) => write.round === round).length} writes, ready in ${seconds.toFixed(1)} s`);
  }
  assert(acknowledged.length >= KILL_ROUNDS, `only ${acknowledged.length} writes acknowledged in ${KILL_ROUNDS} rounds`);
  t.diagnostic(rounds.join('; '));
});
