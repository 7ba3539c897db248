#!/usr/bin/env node
// The embedded vault as the owner runs it: `dist/main.js` (tsc's output)
// bundled by esbuild into `dist/bundle/`, with what every app's bundle shares
// (scripts/lib/app-bundle.mjs):
//
// - `vault.js`: the program in one script, which `main.js` runs with V8's
//   code cache beside it, so that a restart does not compile again what
//   every start runs (docs/adr/0019). Its first lines start the database
//   server, which boots while the rest of the file runs (src/early-database.ts).
// - `cli.mjs` and its chunks: the command line, as ES modules.
//
// Run by this app's `build` after tsc.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESM_BANNER, buildProgram, bundleOptions } from '../../scripts/lib/app-bundle.mjs';

const app = fileURLToPath(new URL('.', import.meta.url));
export const BUNDLE_DIR = `${app}dist/bundle`;

rmSync(BUNDLE_DIR, { recursive: true, force: true });
await buildProgram({ entry: `${app}dist/main.js`, bundleDir: BUNDLE_DIR, name: 'vault' });
// The command line (set-password, export, import...) as ES modules.
await build({
  ...bundleOptions(BUNDLE_DIR),
  entryPoints: { cli: `${app}dist/cli.js` },
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  // ES modules in a folder whose package.json says CommonJS (main.js's, buildProgram).
  outExtension: { '.js': '.mjs' },
  banner: ESM_BANNER,
});
