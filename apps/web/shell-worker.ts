import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import type { OutputBundle } from 'rolldown';
import { isShellFile, WORKER_URL } from './src/worker/shell-files';

const WORKER_ENTRY = fileURLToPath(new URL('./src/worker/service-worker.ts', import.meta.url));

/**
 * Emits the service worker (sw.js, at the root so that its scope is the whole
 * app) with the build's shell listed in it: the page, the manifest, the icons
 * and every script and style the build wrote (src/worker/shell-files.ts says
 * which). The list and a digest of the files are compiled into the worker,
 * so every build whose shell differs is a new worker to the browser, which
 * then replaces the old shell. Hand-written rather than Workbox's plugin,
 * whose install pulls in Babel (docs/adr/0016-installable-web-app.md).
 */
export function shellWorker(): Plugin {
  let publicDir = '';
  return {
    name: 'vault-shell-worker',
    apply: 'build',
    // After Vite's own plugins, so that index.html and the styles are in the bundle.
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    async generateBundle(_options, bundle) {
      const files = [...shellFilesOfBundle(bundle), ...shellFilesOfFolder(publicDir)].sort((a, b) => a.path.localeCompare(b.path));
      const source = await compileWorker(
        files.map((file) => file.path),
        digest(files),
      );
      this.emitFile({ type: 'asset', fileName: WORKER_URL.slice(1), source });
    },
  };
}

interface ShellFile {
  /** The URL path, `/assets/index-1a2b.js`. */
  path: string;
  content: string | Uint8Array;
}

function shellFilesOfBundle(bundle: OutputBundle): ShellFile[] {
  return Object.values(bundle)
    .filter((output) => isShellFile(output.fileName))
    .map((output) => ({ path: `/${output.fileName}`, content: output.type === 'chunk' ? output.code : output.source }));
}

/** The public folder's files, copied as they are beside the bundle. */
function shellFilesOfFolder(dir: string): ShellFile[] {
  if (!dir) return [];
  return [...walk(dir)]
    .map((path) => relative(dir, path).split(sep).join('/'))
    .filter(isShellFile)
    .map((name) => ({ path: `/${name}`, content: readFileSync(join(dir, name)) }));
}

/** Sixteen hex digits of SHA-256 over every shell file's path and content. */
function digest(files: ShellFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file.path).update('\0').update(file.content).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** The worker's source bundled into one classic script (a module worker is not yet in every browser the app runs in). */
async function compileWorker(shellFiles: string[], version: string): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    define: {
      __SHELL_FILES__: JSON.stringify(shellFiles),
      __SHELL_VERSION__: JSON.stringify(version),
    },
    build: {
      write: false,
      copyPublicDir: false,
      modulePreload: false,
      minify: true,
      rolldownOptions: { input: WORKER_ENTRY, output: { format: 'iife', entryFileNames: 'sw.js' } },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  for (const result of results) {
    if (!('output' in result)) continue;
    const chunk = result.output.find((item) => item.type === 'chunk' && item.isEntry);
    if (chunk?.type === 'chunk') return chunk.code;
  }
  throw new Error('shell worker: the worker was not built');
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
