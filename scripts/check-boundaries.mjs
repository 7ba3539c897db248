#!/usr/bin/env node
// Module boundaries: every `@vault/*` import in a project's code must be
// allowed by the tags in its package.json ("nx": {"tags": [...]}) and be
// declared as a dependency. Prints a line per violation; exits 1 on any.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VAULT_SERVICES } from './lib/services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Which project types a type may import. Domains never import each other, the gateway or a host. */
const ALLOWED = {
  'type:contracts': [],
  'type:platform': ['type:contracts'],
  'type:transport': ['type:contracts', 'type:platform'],
  'type:persistence': ['type:platform'],
  'type:domain': ['type:contracts', 'type:platform', 'type:transport', 'type:persistence'],
  // The archive (libs/archive) reaches the services only through their contracts, as the gateway does.
  'type:archive': ['type:contracts', 'type:platform', 'type:transport'],
  'type:gateway': ['type:contracts', 'type:platform', 'type:transport', 'type:archive'],
  // A host composes the services of the one list (@vault/contracts' VAULT_SERVICES).
  'type:host': ['type:contracts', 'type:platform', 'type:transport', 'type:persistence', 'type:archive', 'type:gateway'],
  'type:app': ['type:contracts', 'type:platform', 'type:transport', 'type:persistence', 'type:domain', 'type:archive', 'type:gateway', 'type:host'],
  'type:testing': ['type:contracts', 'type:platform'],
  'type:e2e': ['type:contracts', 'type:testing'],
};
/** Tests may also reach the harness and the modules they compose. */
const ALLOWED_IN_TESTS = ['type:testing', 'type:domain', 'type:contracts'];

const projects = ['apps', 'libs'].flatMap((dir) =>
  readdirSync(join(root, dir)).map((name) => {
    const path = join(root, dir, name);
    const pkg = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
    return { name: pkg.name, path, pkg, tags: pkg.nx?.tags ?? [] };
  }),
);
const byName = new Map(projects.map((p) => [p.name, p]));
const typeOf = (p) => p.tags.find((t) => t.startsWith('type:'));
const scopeOf = (p) => p.tags.find((t) => t.startsWith('scope:'));

function* sources(dir) {
  for (const entry of readdirSync(dir)) {
    if (['node_modules', 'dist', 'test-results', 'migrations'].includes(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|mjs)$/.test(entry)) yield path;
  }
}

const violations = [];
let checked = 0;
for (const project of projects) {
  const type = typeOf(project);
  if (!type || !(type in ALLOWED)) {
    violations.push(`${project.name}: needs a known type tag (one of ${Object.keys(ALLOWED).join(', ')})`);
    continue;
  }
  const declared = { ...project.pkg.dependencies, ...project.pkg.devDependencies };
  for (const file of sources(project.path)) {
    const isTest = /\.(spec|int-spec|test)\.tsx?$|\/test\//.test(file);
    const text = readFileSync(file, 'utf8');
    for (const [, imported] of text.matchAll(/(?:from|import)\s*\(?\s*['"](@vault\/[\w-]+)['"]/g)) {
      const target = byName.get(imported);
      if (!target || target === project) continue;
      checked++;
      const where = relative(root, file);
      const allowed = [...ALLOWED[type], ...(isTest ? ALLOWED_IN_TESTS : [])];
      if (!allowed.includes(typeOf(target))) violations.push(`${where}: ${type} may not import ${imported} (${typeOf(target)})`);
      if (scopeOf(project) === 'scope:web' && scopeOf(target) !== 'scope:shared') violations.push(`${where}: web code may not import server code ${imported}`);
      if (!isTest && !(imported in declared)) violations.push(`${where}: imports ${imported} without declaring it in ${project.name}'s package.json`);
    }
  }
}

// The list of services and the workspace agree: each service has its domain lib and its app, and no app is a service the list lacks.
for (const { name, app } of VAULT_SERVICES) {
  if (typeOf(byName.get(`@vault/${name}`) ?? { tags: [] }) !== 'type:domain')
    violations.push(`service ${name}: libs/${name} must be its domain lib (@vault/${name}, type:domain)`);
  if (typeOf(byName.get(`@vault/${app}`) ?? { tags: [] }) !== 'type:app')
    violations.push(`service ${name}: apps/${app} must be its process (@vault/${app}, type:app)`);
}
for (const project of projects) {
  const app = relative(join(root, 'apps'), project.path);
  if (app.endsWith('-svc') && !VAULT_SERVICES.some((service) => service.app === app))
    violations.push(`apps/${app}: a service app missing from VAULT_SERVICES (libs/contracts/src/services.ts)`);
}

for (const v of violations) process.stdout.write(`boundary: ${v}\n`);
process.stdout.write(`module boundaries: ${checked} imports checked across ${projects.length} projects, ${violations.length} violations\n`);
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify({ passed: checked - violations.length, failed: violations.length }));
process.exit(violations.length > 0 ? 1 : 0);
