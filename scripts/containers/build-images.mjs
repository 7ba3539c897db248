#!/usr/bin/env node
// Builds the six images on this machine (buildah, no Docker engine), the same
// images as the Dockerfile (one per APP) but from the workspace built here, in layers
// that are made only when their inputs change:
//
//   localhost/vault-base:node<version>   Debian + Node (base-image.sh; once)
//   localhost/vault-deps:<inputs>        + the production dependencies of the six
//                                          apps (stage-app.mjs --only deps); made
//                                          again only when the lockfile, a
//                                          manifest or the base changes
//   localhost/vault-<app>:<tag>          + the app's build and libraries (a thin
//                                          layer); made again only when those
//                                          files, the shared layer or the app's
//                                          Dockerfile's settings change
//
//   node scripts/containers/build-images.mjs [--tag local] [--no-workspace-build]
//   node scripts/containers/build-images.mjs --embedded [--tag local] [--no-workspace-build]
//                                        the embedded image instead, localhost/vault:<tag>
//                                        (the Dockerfile's stage vault; buildEmbeddedImage)
//
// Each image carries its inputs' hash in the label org.vault.inputs. The
// settings of the Dockerfile's last stage (WORKDIR, ENV, USER, EXPOSE, CMD)
// are applied as a build with the app's APP and PORT would apply them.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DISTRIBUTED_APPS } from '../lib/services.mjs';
import { EMBEDDED_STAGE, finalStageLines } from './dockerfile.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const APPS = DISTRIBUTED_APPS;
const EXTRA = { gateway: ['apps/web/dist'] };
const LABEL = 'org.vault.inputs';

/**
 * Whether the kernel's overlayfs works where the images are kept (root, and a filesystem it
 * takes): then a layer costs what it adds, where vfs copies its parent whole (seconds
 * instead of tens of seconds per app image).
 */
function overlayWorks() {
  if (process.getuid?.() !== 0) return false;
  const dir = process.env.VAULT_CONTAINERS_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'vault/containers');
  mkdirSync(dir, { recursive: true });
  const probe = mkdtempSync(join(dir, 'overlay-probe-'));
  try {
    for (const d of ['lower', 'upper', 'work', 'merged']) mkdirSync(join(probe, d));
    const mounted = spawnSync('mount', [
      '-t',
      'overlay',
      'overlay',
      '-o',
      `lowerdir=${probe}/lower,upperdir=${probe}/upper,workdir=${probe}/work`,
      join(probe, 'merged'),
    ]);
    if (mounted.status !== 0) return false;
    spawnSync('umount', [join(probe, 'merged')]);
    return true;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/**
 * The environment of scripts/containers/env.sh: buildah and podman then use the project's
 * storage and settings, with the overlay driver where it works (VAULT_CONTAINERS_DRIVER
 * chooses otherwise).
 */
export function containersEnv() {
  const driver = process.env.VAULT_CONTAINERS_DRIVER ?? (overlayWorks() ? 'overlay' : 'vfs');
  const settings = spawnSync('bash', ['-c', '. scripts/containers/env.sh && node -p "JSON.stringify(process.env)"'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, VAULT_CONTAINERS_DRIVER: driver },
  });
  if (settings.status !== 0) throw new Error(`scripts/containers/env.sh: ${settings.stderr}`);
  return JSON.parse(settings.stdout);
}

function runner(env) {
  return (command, args, { allowFail = false } = {}) => {
    const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.error) throw result.error;
    if (result.status !== 0 && !allowFail)
      throw new Error(`${command} ${args.join(' ')} failed:\n${(result.stderr || result.stdout).trim().split('\n').slice(-20).join('\n')}`);
    return result;
  };
}

/** sha256 over files and folders (paths, link targets, contents), in a stable order. */
function hashTree(hash, path, name = '') {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) hash.update(`L ${name} ${readlinkSync(path)}\n`);
  else if (stat.isDirectory()) {
    hash.update(`D ${name}\n`);
    for (const entry of readdirSync(path).sort()) hashTree(hash, join(path, entry), `${name}/${entry}`);
  } else hash.update(`F ${name} ${stat.mode & 0o777} ${stat.size}\n`).update(readFileSync(path));
  return hash;
}

/**
 * The instructions of the stage a build for `target` ends with (an app, its build arguments applied;
 * or the embedded image's stage), as buildah config options.
 */
function dockerfileConfig(target) {
  const options = [];
  for (const line of finalStageLines(target)) {
    const [, word, rest] = line.match(/^(\w+)\s+(.*)$/);
    switch (word.toUpperCase()) {
      case 'WORKDIR':
        options.push('--workingdir', rest);
        break;
      case 'ENV':
        for (const pair of rest.split(/\s+/)) options.push('--env', pair);
        break;
      case 'USER':
        options.push('--user', rest);
        break;
      case 'EXPOSE':
        options.push('--port', rest);
        break;
      case 'VOLUME':
        options.push('--volume', rest);
        break;
      case 'HEALTHCHECK': {
        const [, flags, command] = rest.match(/^((?:--[\w-]+=\S+\s+)*)CMD\s+(.*)$/);
        options.push('--healthcheck', `CMD ${JSON.parse(command).join(' ')}`);
        for (const [, name, value] of flags.matchAll(/--([\w-]+)=(\S+)/g)) options.push(`--healthcheck-${name}`, value);
        break;
      }
      case 'ENTRYPOINT':
        options.push('--entrypoint', rest);
        break;
      case 'CMD':
        options.push('--cmd', rest);
        break;
      case 'ARG':
      case 'COPY':
        break; // the files: staged by stage-app.mjs or stage-vault.mjs
      default:
        throw new Error(`Dockerfile: ${word} in the stage of ${target} is not understood by build-images.mjs`);
    }
  }
  return options;
}

/** An image's inputs label (what it was made from) and its id; undefined when there is no such image. */
function imageFacts(run) {
  return {
    labelOf: (image) =>
      run('buildah', ['inspect', '--type', 'image', '--format', `{{index .OCIv1.Config.Labels "${LABEL}"}}`, image], { allowFail: true }).stdout?.trim(),
    idOf: (image) => run('buildah', ['inspect', '--type', 'image', '--format', '{{.FromImageID}}', image], { allowFail: true }).stdout?.trim(),
  };
}

/**
 * The embedded image (the Dockerfile's stage vault), as `docker build --target vault` makes it but from
 * the workspace built here: FROM scratch, its whole filesystem laid out by stage-vault.mjs and added
 * as one layer, committed in Docker's format (OCI's has no HEALTHCHECK). Made again only when those
 * files or the stage's settings change. Returns the image's name.
 * @param {{ tag?: string, workspaceBuild?: boolean, log?: (line: string) => unknown }} [options]
 */
export function buildEmbeddedImage({ tag = 'local', workspaceBuild = true, log = (line) => process.stdout.write(`images: ${line}\n`) } = {}) {
  const env = containersEnv();
  const run = runner(env);
  const { labelOf, idOf } = imageFacts(run);
  const started = Date.now();
  if (workspaceBuild) run('npx', ['nx', 'run-many', '-t', 'build', '-p', '@vault/vault-app', '@vault/web', '--output-style=static']);
  const folder = join(env.VAULT_CONTAINERS_DIR, 'stage', 'vault-root');
  mkdirSync(join(env.VAULT_CONTAINERS_DIR, 'stage'), { recursive: true });
  run('node', ['scripts/containers/stage-vault.mjs', folder]);
  const config = dockerfileConfig(EMBEDDED_STAGE);
  const inputs = hashTree(createHash('sha256').update(JSON.stringify(config)), folder)
    .digest('hex')
    .slice(0, 16);
  const image = `localhost/vault:${tag}`;
  if (labelOf(image) === inputs) {
    log(`${image}: unchanged (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return image;
  }
  const previous = idOf(image);
  const layer = `${folder}.tar`;
  const container = run('buildah', ['from', '--quiet', 'scratch']).stdout.trim();
  try {
    run('tar', ['-C', folder, '--numeric-owner', '-cf', layer, '.']);
    run('buildah', ['add', '--quiet', container, layer, '/']);
    run('buildah', ['config', ...config, '--label', `${LABEL}=${inputs}`, container]);
    run('buildah', ['commit', '--quiet', '--rm', '--format', 'docker', container, image]);
  } catch (error) {
    run('buildah', ['rm', container], { allowFail: true });
    throw error;
  } finally {
    rmSync(layer, { force: true });
  }
  if (previous && previous !== idOf(image)) run('buildah', ['rmi', previous], { allowFail: true });
  log(`${image}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return image;
}

/**
 * Builds what changed and returns the six image names. `log` gets one line per step, with its
 * seconds; `timings` collects them.
 * @param {{ tag?: string, workspaceBuild?: boolean, log?: (line: string) => unknown }} [options]
 */
export function buildImages({ tag = 'local', workspaceBuild = true, log = (line) => process.stdout.write(`images: ${line}\n`) } = {}) {
  const env = containersEnv();
  const run = runner(env);
  const timings = {};
  const timed = (name, fn) => {
    const started = Date.now();
    const result = fn();
    timings[name] = (Date.now() - started) / 1000;
    return result;
  };
  const stage = join(env.VAULT_CONTAINERS_DIR, 'stage');
  mkdirSync(stage, { recursive: true });
  const { labelOf, idOf } = imageFacts(run);

  /** A new image: `from` plus the files of `folder` at /, with the given config; the old image of that name goes. */
  function commit(from, folder, image, config, inputs) {
    const previous = idOf(image);
    const container = run('buildah', ['from', '--pull-never', '--quiet', from]).stdout.trim();
    try {
      const mount = run('buildah', ['mount', container]).stdout.trim();
      run('cp', ['-a', `${folder}/.`, `${mount}/`]);
      run('buildah', ['umount', container]);
      run('buildah', ['config', ...config, '--label', `${LABEL}=${inputs}`, container]);
      run('buildah', ['commit', '--quiet', '--rm', container, image]);
    } catch (error) {
      run('buildah', ['rm', container], { allowFail: true });
      throw error;
    }
    if (previous && previous !== idOf(image)) run('buildah', ['rmi', previous], { allowFail: true });
  }

  const base = timed('base image', () => run('bash', ['scripts/containers/base-image.sh']).stdout.trim().split('\n').pop());
  log(`base ${base} (${timings['base image'].toFixed(1)} s; storage driver ${env.VAULT_CONTAINERS_DRIVER})`);

  if (workspaceBuild) {
    timed('workspace build', () => run('npx', ['nx', 'run-many', '-t', 'build', '--output-style=static']));
    log(`workspace built (nx, cached when unchanged): ${timings['workspace build'].toFixed(1)} s`);
  } else log('workspace build skipped: the apps as they are built now');

  // The shared layer: named after its inputs, so an existing one is simply reused.
  // Its inputs: the lockfile, the manifests of the libraries and the six apps, the root's but for its scripts.
  const manifests = [...readdirSync(join(root, 'libs')).map((n) => join('libs', n, 'package.json')), ...APPS.map((app) => join('apps', app, 'package.json'))]
    .filter((p) => existsSync(join(root, p)))
    .sort();
  const { scripts, ...rootManifest } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const depsHash = createHash('sha256').update(idOf(base)).update(JSON.stringify(rootManifest));
  for (const file of ['package-lock.json', 'scripts/containers/stage-app.mjs', ...manifests]) depsHash.update(file).update(readFileSync(join(root, file)));
  const depsKey = depsHash.digest('hex').slice(0, 16);
  const deps = `localhost/vault-deps:${depsKey}`;
  if (labelOf(deps) === depsKey) {
    log(`shared layer ${deps}: unchanged`);
  } else {
    timed('shared layer', () => {
      // The vault user is added to the base's own /etc/passwd: read it from the base image.
      const container = run('buildah', ['from', '--pull-never', '--quiet', base]).stdout.trim();
      try {
        const mount = run('buildah', ['mount', container]).stdout.trim();
        run('node', ['scripts/containers/stage-app.mjs', stage, '--only', 'deps', '--etc-from', mount, ...APPS]);
      } finally {
        run('buildah', ['rm', container], { allowFail: true });
      }
      commit(base, join(stage, 'deps'), deps, [], depsKey);
      rmSync(join(stage, 'deps'), { recursive: true, force: true });
    });
    log(`shared layer ${deps}: built in ${timings['shared layer'].toFixed(1)} s`);
  }
  const depsId = idOf(deps);

  timed('stage apps', () =>
    run('node', ['scripts/containers/stage-app.mjs', stage, '--only', 'apps', ...APPS.map((app) => [app, ...(EXTRA[app] ?? [])].join('+'))]),
  );
  const images = [];
  for (const app of APPS) {
    const image = `localhost/vault-${app}:${tag}`;
    const config = dockerfileConfig(app);
    const inputs = hashTree(createHash('sha256').update(depsId).update(JSON.stringify(config)), join(stage, app))
      .digest('hex')
      .slice(0, 16);
    images.push(image);
    if (labelOf(image) === inputs) {
      log(`${image}: unchanged`);
      continue;
    }
    timed(app, () => commit(deps, join(stage, app), image, config, inputs));
    log(`${image}: built in ${timings[app].toFixed(1)} s`);
  }
  // Shared layers of earlier lockfiles: removed once no image stands on them (rmi refuses otherwise).
  const stale = run('buildah', ['images', '--format', '{{.Name}}:{{.Tag}}', '--filter', 'reference=localhost/vault-deps'], { allowFail: true })
    .stdout.split('\n')
    .filter((n) => n && n !== deps);
  for (const old of stale) run('buildah', ['rmi', old], { allowFail: true });
  return { images, timings };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      tag: { type: 'string', default: process.env.VAULT_IMAGE_TAG ?? 'local' },
      'no-workspace-build': { type: 'boolean', default: false },
      embedded: { type: 'boolean', default: false },
    },
  });
  const started = Date.now();
  try {
    const options = { tag: values.tag, workspaceBuild: !values['no-workspace-build'] };
    if (values.embedded) buildEmbeddedImage(options);
    else buildImages(options);
    process.stdout.write(`images: ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    process.stderr.write(`images: ${error.message}\n`);
    process.exit(1);
  }
}
