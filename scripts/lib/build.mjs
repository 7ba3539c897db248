import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

function run(root, command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } });
  if (result.status !== 0) {
    process.stderr.write(`\n${command} ${args.join(' ')} failed\n`);
    process.exit(result.status ?? 1);
  }
}

/** Installs the dependencies when they are missing, then builds what changed (Nx caches the rest). */
export async function ensureBuilt(root) {
  if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
    process.stdout.write('Installing dependencies (first run)...\n');
    // Not `npm ci`: the registry here serves only this platform's native builds, which `ci` reads as a stale lock.
    run(root, 'npm', ['install', '--no-audit', '--no-fund']);
  }
  run(root, 'npx', ['nx', 'run-many', '-t', 'build', '--output-style=static']);
}
