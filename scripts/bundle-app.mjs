#!/usr/bin/env node
// A distributed app as its image and the launcher run it: its `dist/main.js`
// (tsc's output) bundled by esbuild into one script, `dist/bundle/<app>.js`,
// which `dist/bundle/main.js` runs with V8's code cache (buildProgram in
// scripts/lib/app-bundle.mjs, docs/adr/0024). Run by each app's `build` after
// tsc, from the app's folder (npm runs a package's scripts there). Its
// dynamic imports (the libraries a main loads after its heap settings) land
// in the same file. The app's other commands (`node dist/main.js migrate`,
// the gateway's dist/backup.js and dist/import-journal.js, run once each)
// stay tsc's.
import { existsSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { buildProgram } from './lib/app-bundle.mjs';

const app = process.cwd();
const main = join(app, 'dist/main.js');
if (!existsSync(main)) throw new Error(`${main} is missing: bundle-app.mjs runs after tsc, from an app's folder`);
const bundleDir = join(app, 'dist/bundle');
rmSync(bundleDir, { recursive: true, force: true });
await buildProgram({ entry: main, bundleDir, name: basename(app) });
