#!/usr/bin/env node
// Lays out apps of the built workspace as the files of their images, each
// under OUT/<app>, to be copied to / by the image's last stage:
//
//   app/package.json        the app's (an ES module package)
//   app/dist/               the app's build: `node dist/main.js` from /app
//   app/node_modules/       production dependencies only (npm install --omit=dev
//                           --workspace, from package-lock.json), @vault/* linked to
//   app/libs/<lib>/         the workspace libraries it uses: package.json and their
//                           "files" (dist, migrations)
//   app/<path>              each extra path, where it is in the repository (the
//                           gateway's apps/web/dist: where it looks by default)
//   etc/passwd, etc/group   the base's, plus the user vault (10001), as the chart runs it
//
//   node scripts/containers/stage-app.mjs OUT <app>[+<extra path>...] ...
//   node scripts/containers/stage-app.mjs /rootfs gateway+apps/web/dist auth-svc
//
// Run by the build stage of apps/*/Dockerfile, after `npm install` and the
// build, for all six apps at once: the stage is the same in each Dockerfile,
// so one build serves the six images.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const UID = 10001;
const root = fileURLToPath(new URL('../..', import.meta.url));
const [out, ...specs] = process.argv.slice(2);
const apps = specs.map((spec) => {
  const [app, ...extra] = spec.split('+');
  return { app, extra };
});
if (!out || apps.length === 0 || apps.some(({ app }) => !existsSync(join(root, 'apps', app, 'dist/main.js')))) {
  process.stderr.write('usage: stage-app.mjs <out> <app under apps/, built>[+<extra path>...] ...\n');
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

function npmInstall(cwd, app) {
  const args = ['install', '--prefer-offline', '--omit=dev', '--workspace', `apps/${app}`, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`npm ${args.join(' ')} (${app}) exited with ${code}`))));
  });
}

async function stage({ app, extra }) {
  const target = join(out, app, 'app');
  rmSync(join(out, app), { recursive: true, force: true });
  mkdirSync(target, { recursive: true });

  // Every workspace's manifest (so the lockfile reads as it is), then only the app's production tree.
  for (const file of ['package.json', 'package-lock.json', ...workspaces.map((w) => join(w, 'package.json'))]) cpSync(join(root, file), join(target, file));
  await npmInstall(target, app);

  // The workspaces npm linked are the ones the app runs: keep their built files, drop the others.
  const scope = join(target, 'node_modules/@vault');
  const linked = new Set(readdirSync(scope).map((name) => relative(target, join(scope, readlinkSync(join(scope, name))))));
  for (const workspace of workspaces) {
    if (!linked.has(workspace)) rmSync(join(target, workspace), { recursive: true, force: true });
    else if (workspace !== `apps/${app}`) {
      for (const file of json(join(root, workspace, 'package.json')).files ?? ['dist']) {
        if (existsSync(join(root, workspace, file))) cpSync(join(root, workspace, file), join(target, workspace, file), { recursive: true });
      }
    }
  }

  // The app itself at the top: /app/package.json and /app/dist.
  const manifest = json(join(root, 'apps', app, 'package.json'));
  rmSync(join(target, 'apps', app), { recursive: true, force: true });
  rmSync(join(scope, manifest.name.split('/')[1]), { force: true });
  rmSync(join(target, 'package-lock.json'));
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(root, 'apps', app, 'dist'), join(target, 'dist'), { recursive: true });
  if (readdirSync(join(target, 'apps')).length === 0) rmSync(join(target, 'apps'), { recursive: true });
  for (const path of extra) {
    if (!existsSync(join(root, path))) throw new Error(`${app}: ${path} is missing (not built?)`);
    cpSync(join(root, path), join(target, path), { recursive: true });
  }

  // The user the image runs as, named, so that tools in the container show who it is.
  mkdirSync(join(out, app, 'etc'));
  const passwd = readFileSync('/etc/passwd', 'utf8').trimEnd();
  const group = readFileSync('/etc/group', 'utf8').trimEnd();
  writeFileSync(join(out, app, 'etc/passwd'), `${passwd}\nvault:x:${UID}:${UID}:Vault:/nonexistent:/usr/sbin/nologin\n`);
  writeFileSync(join(out, app, 'etc/group'), `${group}\nvault:x:${UID}:\n`);
  const libs = [...linked].filter((w) => w !== `apps/${app}`).map((w) => w.replace(/^libs\//, ''));
  process.stdout.write(`stage-app: ${app} in ${join(out, app)} (libs ${libs.join(', ')}${extra.length ? `; ${extra.join(', ')}` : ''})\n`);
}

// Three at a time: npm spends most of its time waiting on the cache and the registry.
const queue = [...apps];
const workers = Array.from({ length: Math.min(3, queue.length) }, async () => {
  while (queue.length > 0) await stage(queue.shift());
});
try {
  await Promise.all(workers);
} catch (error) {
  process.stderr.write(`stage-app: ${error.message}\n`);
  process.exit(1);
}
