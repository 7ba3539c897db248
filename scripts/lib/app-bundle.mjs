// What every app's esbuild bundle shares: the embedded vault's
// (apps/vault/bundle.mjs) and each distributed app's (scripts/bundle-app.mjs),
// each one script run with V8's code cache (buildProgram, ADR 0019 and 0024). An app's tsc output is one
// module per file across the workspace and node_modules, about 1,400 files:
// loading them (resolving, reading, linking and compiling each) was most of a
// start's CPU, six times over in the distributed mode.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

/**
 * The packages a bundle leaves as imports, so that they are loaded from
 * node_modules at run time: native addons load their binaries from beside
 * their own files; PGlite (only to import an old folder), the password
 * checker (only when a password is set) and WebAuthn (only when a passkey is
 * used) stay out of the start's code. WebAuthn's certificate parser also
 * require()s reflect-metadata: inside the bundle that would make it a lazy
 * module, initialised after Nest's decorators need it. The embedded image
 * (scripts/containers/stage-vault.mjs) ships these, and only these, as
 * node_modules, with PostgreSQL's binaries; the distributed images have
 * every production dependency in their shared layer.
 */
export const BUNDLE_EXTERNALS = ['@node-rs/argon2', 'sharp', '@electric-sql/pglite', '@zxcvbn-ts/*', '@simplewebauthn/server'];

/**
 * The workspace's libraries find files beside their own (each service's
 * migrations, the web app's files, the PostgreSQL binaries' package) from
 * `import.meta.url`. Inside a bundle that would be the bundle's URL, so each
 * use becomes its original file's URL, relative to the bundle in
 * `bundleDir`: the bundle keeps working wherever the repository is, and in
 * an image that lays the repository's files out the same way under /app.
 */
const ownFileUrls = (bundleDir) => ({
  name: 'own-file-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\/(libs|apps)\/[^/]+\/dist\/.*\.js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const url = `new URL(${JSON.stringify(relative(bundleDir, path))}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
    });
  },
});

/**
 * Packages a library imports only for a feature the app does not use and
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
 * 1 s restart's CPU profile, for a process that never fetches. Vault runs on
 * Node only, so its bundles skip the question. The build stops if pg no
 * longer asks it this way.
 */
const nodeSocketsForPg = {
  name: 'node-sockets-for-pg',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\/node_modules\/pg\/lib\/stream\.js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const question = 'if (isCloudflareRuntime()) {';
      if (!text.includes(question)) throw new Error(`${path} no longer asks isCloudflareRuntime(): see scripts/lib/app-bundle.mjs's node-sockets-for-pg`);
      return { contents: text.replace(question, 'if (false) {'), loader: 'js' };
    });
  },
};

/**
 * Nest's Logger and ConsoleLogger each make a date formatter when
 * @nestjs/common is loaded: a process's first Intl object loads ICU's
 * locale data, 13 ms of every start, for timestamps the vault never prints
 * (its lines go through pino, platform's NestPinoLogger). The bundles make
 * them on first use instead. The build stops if Nest no longer makes them
 * this way.
 */
const lazyNestDateFormatter = {
  name: 'lazy-nest-date-formatter',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\/node_modules\/@nestjs\/common\/services\/(console-)?logger\.service\.js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const made = 'const dateTimeFormatter = new Intl.DateTimeFormat(';
      const used = 'dateTimeFormatter.format(';
      if (!text.includes(made) || text.split(used).length !== 2)
        throw new Error(`${path} no longer makes its dateTimeFormatter as the build expects: see scripts/lib/app-bundle.mjs's lazy-nest-date-formatter`);
      const contents = text
        .replace(made, 'let dateTimeFormatter; const makeDateTimeFormatter = () => new Intl.DateTimeFormat(')
        .replace(used, '(dateTimeFormatter ??= makeDateTimeFormatter()).format(');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * esbuild's options for a bundle written to `bundleDir`: the workspace and
 * its packages in one file or a few, for Node 20.
 * @param {string} bundleDir
 */
export function bundleOptions(bundleDir) {
  return {
    outdir: bundleDir,
    bundle: true,
    platform: /** @type {const} */ ('node'),
    target: 'node20',
    // Class names as written: Nest names modules, providers and log contexts after them.
    keepNames: true,
    // No comments or indentation: less text for node to read and V8 to parse at every start, and a smaller image.
    minifyWhitespace: true,
    legalComments: /** @type {const} */ ('external'),
    external: BUNDLE_EXTERNALS,
    plugins: [absentOptionalPackages, ownFileUrls(bundleDir), nodeSocketsForPg, lazyNestDateFormatter],
    logLevel: /** @type {const} */ ('warning'),
  };
}

/** An ES module bundle's first line: CommonJS packages inside it call require() for Node's own modules. */
export const ESM_BANNER = { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" };

/**
 * An app's program as its `dist/bundle/main.js` starts it with V8's code
 * cache (docs/adr/0019, 0024): esbuild bundles `entry` (tsc's main, which
 * must not await at its top level: a script has no module loader) into
 * `<bundleDir>/<name>.js`, one script whose value is a CommonJS module's
 * function, and writes `main.js` beside it (CommonJS), which sets the heap
 * settings and runs that script (libs/platform's compiled-program.ts).
 *
 * - Its import() calls become require() calls.
 * - A library's import.meta.url is the program's file URL, which ownFileUrls made every use relative to.
 * - ASCII: V8 keeps a script's source for as long as the process runs, and an ASCII file read
 *   as latin1 is one byte a character held outside the heap, where text with one other
 *   character in it would be two bytes a character, in the heap. esbuild escapes strings and
 *   names and leaves out comments; the licences go to `<name>.js.LEGAL.txt`; what is left (a
 *   regular expression's “ or µ) is escaped here.
 * @param {{ entry: string, bundleDir: string, name: string }} program
 */
export async function buildProgram({ entry, bundleDir, name }) {
  await build({
    ...bundleOptions(bundleDir),
    entryPoints: { [name]: entry },
    format: 'cjs',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__bundleFileUrl' },
    banner: { js: "(function (exports, require, module, __filename, __dirname) { const __bundleFileUrl = require('node:url').pathToFileURL(__filename).href;" },
    footer: { js: '})' },
  });
  const file = join(bundleDir, `${name}.js`);
  writeFileSync(file, asciiOnly(readFileSync(file, 'utf8'), file));
  // CommonJS, as the folder's package.json says: an ES module entry made Node set up its ES module loader first,
  // 50 ms of every start's CPU profile (issue 37). Another bundle in the folder is written as .mjs.
  writeFileSync(join(bundleDir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  await build({
    ...bundleOptions(bundleDir),
    stdin: {
      contents: [
        "import '@vault/platform/memory-settings';",
        "import { startProgram } from '@vault/platform/compiled-program';",
        `startProgram(require('node:path').join(__dirname, ${JSON.stringify(`${name}.js`)}));`,
      ].join('\n'),
      resolveDir: dirname(entry),
      sourcefile: 'main.js',
      loader: 'js',
    },
    outfile: join(bundleDir, 'main.js'),
    outdir: undefined,
    format: 'cjs',
  });
}

/**
 * The program's text with each character outside ASCII as its `\uXXXX`
 * escape, which means the same in a string, a regular expression and a name
 * (all that is left once comments are gone). One right after a backslash
 * would not: that stops the build.
 */
function asciiOnly(text, file) {
  const escapedAfterBackslash = /\\[\u0080-\uffff]/.exec(text);
  if (escapedAfterBackslash) throw new Error(`${file}: cannot escape ${JSON.stringify(escapedAfterBackslash[0])} at ${escapedAfterBackslash.index}`);
  return text.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
