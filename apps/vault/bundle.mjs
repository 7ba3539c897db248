#!/usr/bin/env node
// The embedded vault as the owner runs it: `dist/main.js` (tsc's output, one
// module per file across the workspace and node_modules, about 1,400 files)
// bundled by esbuild into `dist/bundle/`. Loading 1,400 ES modules (resolving,
// reading and linking each) was most of a restart's CPU; the bundle loads two
// dozen files. The first, small chunk holds the heap settings and the start of
// the database server, which then boots while the large chunk loads (see
// src/early-database.ts). Run by this app's `build` after tsc.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_EXTERNALS } from './bundle-externals.mjs';

const app = fileURLToPath(new URL('.', import.meta.url));
export const BUNDLE_DIR = `${app}dist/bundle`;

/**
 * The workspace's libraries find files beside their own (each service's
 * migrations, the web app's files, the PostgreSQL binaries' package) from
 * `import.meta.url`. Inside the bundle that would be the chunk's URL, so each
 * use becomes its original file's URL, relative to the bundle: the bundle
 * keeps working wherever the repository is.
 */
const ownFileUrls = {
  name: 'own-file-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\/(libs|apps)\/[^/]+\/dist\/.*\.js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const url = `new URL(${JSON.stringify(relative(BUNDLE_DIR, path))}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
    });
  },
};

/**
 * Packages a library imports only for a feature the vault does not use and
 * that are not installed (Nest's other transports and adapters, say) stay
 * imports, failing only if that feature were ever used, as without a bundle.
 */
const absentOptionalPackages = {
  name: 'absent-optional-packages',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.probing) return undefined;
      const found = await esbuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { probing: true } });
      return found.errors.length > 0 ? { path: args.path, external: true } : found;
    });
  },
};

/**
 * pg picks its sockets by asking whether it runs in a Cloudflare Worker: on
 * Node 20, which has no `navigator`, by making a `Response`, which loads
 * Node's whole fetch implementation (undici) when pg is loaded: 57 ms of a
 * 1 s restart's CPU profile, for a process that never fetches. The vault
 * runs on Node only, so the bundle skips the question. The build stops if pg
 * no longer asks it this way.
 */
const nodeSocketsForPg = {
  name: 'node-sockets-for-pg',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\/node_modules\/pg\/lib\/stream\.js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const question = 'if (isCloudflareRuntime()) {';
      if (!text.includes(question)) throw new Error(`${path} no longer asks isCloudflareRuntime(): see bundle.mjs's node-sockets-for-pg`);
      return { contents: text.replace(question, 'if (false) {'), loader: 'js' };
    });
  },
};

rmSync(BUNDLE_DIR, { recursive: true, force: true });
await build({
  // The program and its command line (set-password, export, import...), sharing their chunks.
  entryPoints: [`${app}dist/main.js`, `${app}dist/cli.js`],
  outdir: BUNDLE_DIR,
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Class names as written: Nest names modules, providers and log contexts after them.
  keepNames: true,
  // No comments or indentation: less text for V8 to parse at every start (compiling the chunks was 16 % of a restart's CPU).
  minifyWhitespace: true,
  legalComments: 'external',
  external: BUNDLE_EXTERNALS,
  // CommonJS packages inside the bundle call require() for Node's own modules.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  plugins: [absentOptionalPackages, ownFileUrls, nodeSocketsForPg],
  logLevel: 'warning',
});
