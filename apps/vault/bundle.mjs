#!/usr/bin/env node
// The embedded vault as the owner runs it: `dist/main.js` (tsc's output, one
// module per file across the workspace and node_modules, about 1,400 files)
// bundled by esbuild into `dist/bundle/`. Loading 1,400 ES modules (resolving,
// reading and linking each) was most of a restart's CPU.
//
// - `vault.js`: the program in one script (a CommonJS module's function), which `main.js`
//   (src/compiled-main.ts) runs with V8's code cache beside it, so that a
//   restart does not compile again what every start runs (docs/adr/0019).
//   Its first lines start the database server, which boots while the rest of
//   the file runs (src/early-database.ts).
// - `cli.js` and its chunks: the command line, as ES modules.
//
// Run by this app's `build` after tsc.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** What every build of the vault shares: the workspace and its packages in one file or a few, for Node 20. */
const shared = {
  outdir: BUNDLE_DIR,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Class names as written: Nest names modules, providers and log contexts after them.
  keepNames: true,
  // No comments or indentation: a smaller image, less text for node to read and V8 to keep.
  minifyWhitespace: true,
  external: BUNDLE_EXTERNALS,
  plugins: [absentOptionalPackages, ownFileUrls, nodeSocketsForPg],
  logLevel: 'warning',
};
/** An ES module bundle: CommonJS packages inside it call require() for Node's own modules. */
const esmBanner = { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" };

rmSync(BUNDLE_DIR, { recursive: true, force: true });
// The program as one script, a CommonJS module's function, which compiled-main.ts runs with V8's
// code cache (docs/adr/0019): Node 20 keeps no compiled code of an ES module.
// - Its import() calls become require() calls: the script has no module loader of its own.
// - A library's import.meta.url is the bundle's file URL, which ownFileUrls made every use relative to.
// - ASCII: V8 keeps a script's source for as long as the process runs, and an ASCII file read
//   as latin1 is one byte a character held outside the heap, where text with one other
//   character in it would be two bytes a character, in the heap. esbuild escapes strings and
//   names and leaves out comments; the licences go to vault.js.LEGAL.txt; what is left (a
//   regular expression's “ or µ) is escaped below.
await build({
  ...shared,
  entryPoints: { vault: `${app}dist/main.js` },
  format: 'cjs',
  legalComments: 'external',
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__bundleFileUrl' },
  banner: { js: "(function (exports, require, module, __filename, __dirname) { const __bundleFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  footer: { js: '})' },
});
writeFileSync(`${BUNDLE_DIR}/vault.js`, asciiOnly(readFileSync(`${BUNDLE_DIR}/vault.js`, 'utf8')));

/**
 * The program's text with each character outside ASCII as its `\uXXXX`
 * escape, which means the same in a string, a regular expression and a name
 * (all that is left once comments are gone). One right after a backslash
 * would not: that stops the build.
 */
function asciiOnly(text) {
  const escapedAfterBackslash = /\\[\u0080-\uffff]/.exec(text);
  if (escapedAfterBackslash) throw new Error(`vault.js: cannot escape ${JSON.stringify(escapedAfterBackslash[0])} at ${escapedAfterBackslash.index}`);
  return text.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
// What starts it (main.js), and the command line (set-password, export, import...) as ES modules.
await build({
  ...shared,
  entryPoints: { main: `${app}dist/compiled-main.js`, cli: `${app}dist/cli.js` },
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  banner: esmBanner,
});
