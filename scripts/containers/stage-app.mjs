#!/usr/bin/env node
// Lays out the files of the six images from the built workspace, in two parts,
// so that the big one is shared and the small ones change with the code:
//
//   OUT/deps/             the shared layer, the same in every image:
//     app/node_modules/     the production dependencies of all the apps staged
//                           (npm install --omit=dev, from package-lock.json), with
//                           @vault/<lib> linked to ../../libs/<lib> (each app's
//                           layer brings the libraries it runs)
//     etc/passwd, group     the base's, plus the user vault (10001), as the chart runs it
//   OUT/<app>/            one app's own layer, laid out as in the repository:
//     app/apps/<app>/       the app's package.json (an ES module package) and its
//                           build, run from there: `node dist/bundle/main.js`
//     app/libs/<lib>/       the workspace libraries it uses: package.json and their
//                           "files" (dist, migrations)
//     app/<path>            each extra path, where it is in the repository (the
//                           gateway's apps/web/dist: where it looks by default)
//
//   node scripts/containers/stage-app.mjs OUT [--only deps|apps] [--etc-from DIR] <app>[+<extra path>...] ...
//   node scripts/containers/stage-app.mjs /rootfs gateway+apps/web/dist auth-svc
//
// Run by the build stage of the Dockerfile (both parts; /etc is the base
// image's there), and by build-images.mjs on this machine, which stages the
// dependencies only when the lockfile changes (--only deps, with the base
// image's /etc) and the apps on every build (--only apps).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const UID = 10001;
const root = fileURLToPath(new URL('../..', import.meta.url));
const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { only: { type: 'string' }, 'etc-from': { type: 'string', default: '/' } },
});
const [out, ...specs] = positionals;
const apps = specs.map((spec) => {
  const [app, ...extra] = spec.split('+');
  return { app, extra };
});
const parts = options.only ? [options.only] : ['deps', 'apps'];
if (
  !out ||
  apps.length === 0 ||
  !parts.every((p) => ['deps', 'apps'].includes(p)) ||
  apps.some(({ app }) => !existsSync(join(root, 'apps', app, 'package.json')))
) {
  process.stderr.write('usage: stage-app.mjs <out> [--only deps|apps] [--etc-from DIR] <app under apps/>[+<extra path>...] ...\n');
  process.exit(2);
}
const json = (path) => JSON.parse(readFileSync(path, 'utf8'));
const rootManifest = json(join(root, 'package.json'));
const workspaces = rootManifest.workspaces.flatMap((pattern) => {
  const parent = pattern.replace(/\/\*$/, '');
  return readdirSync(join(root, parent))
    .map((name) => join(parent, name))
    .filter((workspace) => existsSync(join(root, workspace, 'package.json')));
});
const workspaceOf = new Map(workspaces.map((w) => [json(join(root, w, 'package.json')).name, w]));

/** The workspace libraries an app runs: its @vault/* dependencies and theirs. */
function libsOf(app) {
  const found = new Set();
  const visit = (workspace) => {
    for (const name of Object.keys(json(join(root, workspace, 'package.json')).dependencies ?? {})) {
      const dependency = workspaceOf.get(name);
      if (!dependency || found.has(dependency)) continue;
      if (!dependency.startsWith('libs/')) throw new Error(`${app}: depends on the app ${dependency}; only libraries are staged`);
      found.add(dependency);
      visit(dependency);
    }
  };
  visit(`apps/${app}`);
  return [...found].sort();
}

function npm(cwd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm ${args.join(' ')} exited with ${code}`))));
  });
}

/** The shared layer: one production install for all the apps, laid out at /app. */
async function stageDeps() {
  const work = join(out, 'deps.install');
  const target = join(out, 'deps');
  rmSync(work, { recursive: true, force: true });
  rmSync(target, { recursive: true, force: true });
  // Every workspace's manifest (so the lockfile reads as it is), then the apps' production tree.
  for (const file of ['package.json', 'package-lock.json', ...workspaces.map((w) => join(w, 'package.json'))]) cpSync(join(root, file), join(work, file));
  await npm(work, [
    'install',
    '--prefer-offline',
    '--omit=dev',
    ...apps.flatMap(({ app }) => ['--workspace', `apps/${app}`]),
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
  ]);

  mkdirSync(join(target, 'app'), { recursive: true });
  cpSync(join(work, 'node_modules'), join(target, 'app/node_modules'), { recursive: true, verbatimSymlinks: true });
  // Links to the apps themselves go (each image's app is /app); links to libraries stay.
  const scope = join(target, 'app/node_modules/@vault');
  for (const name of readdirSync(scope)) {
    if (!readlinkSync(join(scope, name)).startsWith('../../libs/')) rmSync(join(scope, name));
  }
  // A dependency npm had to nest under a workspace (a second version) stays beside it.
  for (const workspace of workspaces) {
    const nested = join(work, workspace, 'node_modules');
    if (!existsSync(nested) || !lstatSync(nested).isDirectory()) continue;
    if (!workspace.startsWith('libs/')) throw new Error(`${workspace} has dependencies of its own version (${nested}): not supported in the shared layer`);
    cpSync(nested, join(target, 'app', workspace, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  }
  rmSync(work, { recursive: true, force: true });

  // The user the images run as, named, so that tools in the container show who it is.
  mkdirSync(join(target, 'etc'));
  const passwd = readFileSync(join(options['etc-from'], 'etc/passwd'), 'utf8').trimEnd();
  const group = readFileSync(join(options['etc-from'], 'etc/group'), 'utf8').trimEnd();
  writeFileSync(join(target, 'etc/passwd'), `${passwd}\nvault:x:${UID}:${UID}:Vault:/nonexistent:/usr/sbin/nologin\n`);
  writeFileSync(join(target, 'etc/group'), `${group}\nvault:x:${UID}:\n`);
  process.stdout.write(`stage-app: shared dependencies of ${apps.map((a) => a.app).join(', ')} in ${target}\n`);
}

/** One app's layer: its manifest and build at /app/apps/<app>, its libraries' built files under /app/libs. */
function stageApp({ app, extra }) {
  if (!existsSync(join(root, 'apps', app, 'dist/bundle/main.js'))) throw new Error(`${app} is not built (apps/${app}/dist/bundle/main.js)`);
  const target = join(out, app, 'app');
  const own = join(target, 'apps', app);
  rmSync(join(out, app), { recursive: true, force: true });
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, 'package.json'), `${JSON.stringify(json(join(root, 'apps', app, 'package.json')), null, 2)}\n`);
  // Not the code cache a start on this machine may have left beside the bundle (libs/platform's compiled-code.ts): the image is the build's files only.
  cpSync(join(root, 'apps', app, 'dist'), join(own, 'dist'), { recursive: true, filter: (path) => !path.endsWith('.cache') });
  const libs = libsOf(app);
  for (const lib of libs) {
    const manifest = json(join(root, lib, 'package.json'));
    mkdirSync(join(target, lib), { recursive: true });
    cpSync(join(root, lib, 'package.json'), join(target, lib, 'package.json'));
    for (const file of manifest.files ?? ['dist']) {
      if (existsSync(join(root, lib, file))) cpSync(join(root, lib, file), join(target, lib, file), { recursive: true });
    }
  }
  for (const path of extra) {
    if (!existsSync(join(root, path))) throw new Error(`${app}: ${path} is missing (not built?)`);
    cpSync(join(root, path), join(target, path), { recursive: true });
  }
  process.stdout.write(
    `stage-app: ${app} in ${join(out, app)} (${libs.map((l) => l.replace(/^libs\//, '')).join(', ')}${extra.length ? `; ${extra.join(', ')}` : ''})\n`,
  );
}

try {
  if (parts.includes('deps')) await stageDeps();
  if (parts.includes('apps')) for (const app of apps) stageApp(app);
} catch (error) {
  process.stderr.write(`stage-app: ${error.message}\n`);
  process.exit(1);
}
