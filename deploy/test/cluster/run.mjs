#!/usr/bin/env node
// `npm run test:k8s`: the chart installed on a real one-node Kubernetes
// cluster that runs on this machine, and the vault proven there.
//
//   npm run test:k8s                    everything below
//   npm run test:k8s -- --api-only      etcd + kube-apiserver only: the API-level checks
//   npm run test:k8s -- --quick         the install and the vault's round trip, no fault drills
//   npm run test:k8s -- --only pod-deletions,rolling-upgrade
//                                       the install, the sign-in and the named parts only (of
//                                       vault-checks.mjs's SECTIONS: round-trip, failed-migration,
//                                       nats-restart, pod-deletions, rolling-upgrade, self-destruct)
//   npm run test:k8s -- --keep          leave the cluster up (then: npm run test:k8s -- --down)
//   npm run test:k8s -- --down          remove what a kept or killed run left
//   npm run test:k8s -- --no-workspace-build   image the apps as they are built now
//
//   VAULT_K8S_PROGRAMS=<folder>        use programs built elsewhere (build.sh's names) instead
//
// Steps: the Kubernetes programs (build.sh here, built once and cached in
// ~/.cache/vault/k8s), helm, the images (scripts/containers/build-images.mjs),
// the cluster (cluster.mjs), the API-level checks (api-checks.mjs), the stores
// (stores.mjs), `helm install --wait` with values.yaml here, then the checks
// of vault-checks.mjs. Each step and each check is a test of node:test, in
// this order in one run: a failed step ends the run, a failed check does not.
// Everything is torn down at the end, also when a step fails or the run is
// interrupted, and the teardown is checked.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parseArgs } from 'node:util';
import { buildImages, containersEnv } from '../../../scripts/containers/build-images.mjs';
import { apiChecks } from './api-checks.mjs';
import { Cluster, ensurePackages, loadImages, WORK } from './cluster.mjs';
import { Stores } from './stores.mjs';
import { QUICK_SECTIONS, SECTIONS, vaultChecks } from './vault-checks.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
process.chdir(root);
const { values: options } = parseArgs({
  options: {
    'api-only': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    down: { type: 'boolean', default: false },
    'no-workspace-build': { type: 'boolean', default: false },
  },
});

const sections = options.only ? options.only.split(',').map((s) => s.trim()) : options.quick ? QUICK_SECTIONS : SECTIONS;
const unknown = sections.filter((s) => !SECTIONS.includes(s));
if (unknown.length > 0 || (options.only && options.quick)) {
  process.stderr.write(`test:k8s: --only takes some of ${SECTIONS.join(', ')} (not ${unknown.join(', ') || '--quick as well'})\n`);
  process.exit(2);
}

const startedAt = Date.now();
const clock = () => `${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)}s`;
const log = (line) => process.stdout.write(`[k8s ${clock()}] ${line}\n`);
/** @param {string} command @param {string[]} args @param {{ input?: string, env?: NodeJS.ProcessEnv, allowFail?: boolean, timeout?: number }} [options] */
function run(command, args, { input = undefined, env = undefined, allowFail = false, timeout = undefined } = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', input, env: env ?? process.env, maxBuffer: 64 * 1024 * 1024, timeout });
  if (result.error) throw result.error;
  if (!allowFail && result.status !== 0)
    throw new Error(`${command.split('/').pop()} ${args.slice(0, 4).join(' ')}: ${(result.stderr || result.stdout).trim().split('\n').slice(-20).join('\n')}`);
  return result;
}
/** A program built from its Go module by its script (long the first time: its progress is shown), then cached. */
function tool(script, ...args) {
  const built = spawnSync('bash', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (built.status !== 0) throw new Error(`${script} failed`);
  return built.stdout.trim().split('\n').pop();
}

// One run at a time: the cluster's folder, bridge and ports are fixed.
const lock = `${WORK}.lock`;
const holder = existsSync(lock) ? Number(readFileSync(lock, 'utf8')) : 0;
if (
  holder &&
  holder !== process.pid &&
  existsSync(`/proc/${holder}`) &&
  readFileSync(`/proc/${holder}/cmdline`, 'utf8').includes('deploy/test/cluster/run.mjs')
) {
  process.stderr.write(`test:k8s: another run (pid ${holder}) is using the cluster; wait for it, or stop it\n`);
  process.exit(1);
}
writeFileSync(lock, String(process.pid));
process.on('exit', () => {
  if (existsSync(lock) && Number(readFileSync(lock, 'utf8')) === process.pid) rmSync(lock);
});

if (options.down) {
  const left = await Cluster.cleanLeftovers(log);
  log(left.length ? `still there:\n  ${left.join('\n  ')}` : 'nothing left');
  process.exit(left.length ? 1 : 0);
}

const node = !options['api-only'];
let cluster;
let stores;
let interrupted = false;
async function teardown() {
  if (options.keep) {
    log(`kept: KUBECONFIG=${WORK}/admin.kubeconfig; remove with npm run test:k8s -- --down`);
    return [];
  }
  log('teardown ...');
  // The pods first (while their stores still answer), then the stores.
  const left = cluster ? await cluster.stop() : await Cluster.cleanLeftovers(log, { quiet: true });
  if (stores) await stores.close();
  return left;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: tearing down`);
    await teardown();
    process.exit(130);
  });
}

test('the chart on a one-node Kubernetes cluster', async (t) => {
  /** A setup step: a test of its own, whose failure ends the run. */
  const step = async (name, fn) => {
    const outcome = { ok: false, detail: undefined, error: undefined };
    log(`${name} ...`);
    await t.test(name, async () => {
      try {
        outcome.detail = await fn();
        outcome.ok = true;
      } catch (error) {
        outcome.error = error;
        throw error;
      }
    });
    if (!outcome.ok) throw new Error(`${name}: ${outcome.error?.message}`);
    if (typeof outcome.detail === 'string' || typeof outcome.detail === 'number') log(`${name}: ${outcome.detail}`);
    return outcome.detail;
  };
  /** A check: a test of its own; the run goes on when it fails. */
  const check = async (name, fn) => {
    let ok = false;
    await t.test(name, async () => {
      const detail = await fn();
      ok = true;
      if (detail) log(`${name}: ${detail}`);
    });
    return ok;
  };
  try {
    await step('Debian packages', () => ensurePackages(log, { node }));
    // VAULT_K8S_PROGRAMS: a folder of programs built elsewhere (the names of build.sh), instead of building them.
    const programs = await step(
      'Kubernetes programs (deploy/test/cluster/build.sh, versions in deploy/test/cluster/versions.env)',
      () => process.env.VAULT_K8S_PROGRAMS ?? tool('deploy/test/cluster/build.sh', ...(node ? [] : ['kube-apiserver', 'etcd', 'kubectl'])),
    );
    const helmPath = await step('helm (scripts/tools/helm.sh)', () => tool('scripts/tools/helm.sh'));
    let images = [];
    let pauseImage;
    if (node) {
      await step('images (scripts/containers/build-images.mjs)', () => {
        const built = buildImages({ workspaceBuild: !options['no-workspace-build'], log: (line) => log(`  ${line}`) });
        images = built.images;
        pauseImage = makePauseImage(programs);
        return `${images.length} apps + ${pauseImage}`;
      });
    }

    cluster = new Cluster({ bin: programs, node, pauseImage, log });
    const kubeEnv = {
      ...process.env,
      KUBECONFIG: cluster.kubeconfig,
      HELM_CACHE_HOME: `${WORK}/helm/cache`,
      HELM_CONFIG_HOME: `${WORK}/helm/config`,
      HELM_DATA_HOME: `${WORK}/helm/data`,
    };
    const helm = (args, extra = {}) => run(helmPath, args, { env: kubeEnv, ...extra });
    const kubectl = (args, extra = {}) => cluster.kubectl(args, extra);

    // The API-level checks first, on the API server alone: the other components start after.
    await step('cluster: etcd and kube-apiserver', () => cluster.startApi());
    await apiChecks({ root, check, helm, kubectl });

    if (node) {
      await step('cluster: controller-manager, scheduler, containerd, kubelet, kube-proxy, CoreDNS; the node Ready', () => cluster.startNode());
      await step("images into the node's containerd (podman save | ctr import)", () => {
        const { imported, kept } = loadImages(cluster, [...images, pauseImage], containersEnv());
        return `${imported.length} imported, ${kept} already there`;
      });
      stores = new Stores(log);
      await step('stores: PostgreSQL, Redis, MinIO forwarded to the bridge; a private NATS', () => stores.start());
      await vaultChecks({ stores, helm, helmPath, kubeEnv, kubectl, kubectlPath: join(programs, 'kubectl'), check, step, log, sections });
    }
  } finally {
    if (!interrupted)
      await t.test('teardown: no process, mount, link, route, firewall rule or container of the run left', async () => {
        const left = await teardown();
        if (left.length) throw new Error(`left behind:\n${left.join('\n')}`);
      });
  }
});

/** The pod sandbox image: the pause program alone on an empty image (registry.k8s.io cannot be reached). */
function makePauseImage(programs) {
  const binary = `${programs}/pause`;
  const name = `localhost/vault-pause:${createHash('sha256').update(readFileSync(binary)).digest('hex').slice(0, 12)}`;
  const env = containersEnv();
  if (run('buildah', ['inspect', '--type', 'image', name], { env, allowFail: true }).status === 0) return name;
  const container = run('buildah', ['from', 'scratch'], { env }).stdout.trim();
  try {
    run('buildah', ['copy', container, binary, '/pause'], { env });
    run('buildah', ['config', '--entrypoint', '["/pause"]', '--user', '65535:65535', container], { env });
    run('buildah', ['commit', '--quiet', '--rm', container, name], { env });
  } catch (error) {
    run('buildah', ['rm', container], { env, allowFail: true });
    throw error;
  }
  return name;
}
