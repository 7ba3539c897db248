#!/usr/bin/env node
// The embedded vault as the owner runs it: `dist/main.js` (tsc's output)
// bundled by esbuild into `dist/bundle/`, with what every app's bundle shares
// (scripts/lib/app-bundle.mjs):
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
import { fileURLToPath } from 'node:url';
import { ESM_BANNER, bundleOptions } from '../../scripts/lib/app-bundle.mjs';

const app = fileURLToPath(new URL('.', import.meta.url));
export const BUNDLE_DIR = `${app}dist/bundle`;

const shared = bundleOptions(BUNDLE_DIR);

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
  banner: ESM_BANNER,
});
