import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Nx's cache of build outputs and its index (the workspace data, where Nx 24
 * looks entries up), outside the clone, in ~/.cache/vault/nx: a fresh clone
 * on a machine that built the same sources before restores every project's
 * dist in about a second instead of building for a minute. An entry's key is
 * the hash of its project's inputs (nx.json), so different sources never
 * match. Set in the environment, so the tiers that build again (the
 * end-to-end setup) use it too; NX_CACHE_DIRECTORY and
 * NX_WORKSPACE_DATA_DIRECTORY, when set, win.
 */
const nxFolder = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'vault', 'nx');
process.env.NX_CACHE_DIRECTORY ??= join(nxFolder, 'cache');
process.env.NX_WORKSPACE_DATA_DIRECTORY ??= join(nxFolder, 'workspace-data');

function run(root, command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } });
  if (result.status !== 0) {
    process.stderr.write(`\n${command} ${args.join(' ')} failed\n`);
    process.exit(result.status ?? 1);
  }
}

/**
 * Installs the dependencies when they are missing, then builds what changed
 * (Nx caches the rest). VAULT_SKIP_BUILD=1: the caller built everything
 * already (the end-to-end stacks start the distributed launcher so): a second
 * Nx run restores every dist folder in place, under the processes that load
 * them meanwhile (CI once lost an integration spec's vault to it).
 */
export async function ensureBuilt(root) {
  if (process.env.VAULT_SKIP_BUILD === '1') return;
  if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
    process.stdout.write('Installing dependencies (first run)...\n');
    // Not `npm ci`: the registry here serves only this platform's native builds, which `ci` reads as a stale lock.
    run(root, 'npm', ['install', '--no-audit', '--no-fund']);
  }
  run(root, 'npx', ['nx', 'run-many', '-t', 'build', '--output-style=static']);
}
