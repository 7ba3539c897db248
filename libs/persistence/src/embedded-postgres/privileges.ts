import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Who PostgreSQL runs as. It refuses to run as root, so a vault started as
 * root hands it an unprivileged identity:
 *
 * - `self`: not root: PostgreSQL runs as the vault's own user;
 * - `unshare`: root, and user namespaces allowed: `unshare --user` maps
 *   uid 65534 inside to root outside. PostgreSQL sees itself as "nobody" and
 *   the data as its own; on disk everything stays root's, and no system user
 *   is created;
 * - `setpriv`: root where `unshare` is refused (a container's seccomp
 *   profile): `setpriv` switches to uid/gid 65534, and the cluster's folder
 *   is given to that uid.
 */
export type RunAs = 'self' | 'unshare' | 'setpriv';

/** "nobody" on Debian, Ubuntu, Alpine and Fedora alike. */
export const UNPRIVILEGED_ID = 65534;

const ids = [`--reuid=${UNPRIVILEGED_ID}`, `--regid=${UNPRIVILEGED_ID}`, '--clear-groups'];
const userNamespace = ['--user', `--map-user=${UNPRIVILEGED_ID}`, `--map-group=${UNPRIVILEGED_ID}`];

let detected: RunAs | undefined;

/** Tried, not guessed: the first way that actually runs a program here. Once per process. */
export function detectRunAs(): RunAs {
  detected ??= firstWorkingRunAs();
  return detected;
}

function firstWorkingRunAs(): RunAs {
  if (process.getuid?.() !== 0) return 'self';
  if (process.platform !== 'linux') {
    throw new Error('PostgreSQL refuses to run as root, and this system has no `unshare`/`setpriv` to drop it: start the vault as a normal user.');
  }
  if (runs('unshare', [...userNamespace, 'true'])) return 'unshare';
  if (runs('setpriv', [...ids, 'true'])) return 'setpriv';
  throw new Error(
    'PostgreSQL refuses to run as root, and neither `unshare --user` nor `setpriv` (util-linux) works here: ' +
      'install util-linux, or start the vault as a normal user.',
  );
}

/** The command line that runs `argv` (already guarded) as PostgreSQL's user. */
export function asPostgresUser(runAs: RunAs, argv: string[]): string[] {
  if (runAs === 'unshare') return ['unshare', ...userNamespace, ...argv];
  if (runAs === 'setpriv') return ['setpriv', ...ids, ...argv];
  return argv;
}

/**
 * Makes `dir` (recursively) PostgreSQL's: in `setpriv` mode uid 65534's,
 * otherwise this process's user's (a folder left by the other mode is taken
 * back). In `setpriv` mode that user must also reach it: VAULT_DATA_DIR
 * gets o+x (traversal only; everything in it is owner-only), and any other
 * folder above that it cannot pass is reported.
 */
export function giveToPostgresUser(runAs: RunAs, dir: string): void {
  const uid = runAs === 'setpriv' ? UNPRIVILEGED_ID : process.getuid!();
  const gid = runAs === 'setpriv' ? UNPRIVILEGED_ID : process.getgid!();
  if (statSync(dir).uid !== uid) {
    if (process.getuid?.() !== 0) {
      throw new Error(`${dir} belongs to uid ${statSync(dir).uid}, not to this user (uid ${process.getuid?.()}): PostgreSQL will not open it.`);
    }
    chownTree(dir, uid, gid);
  }
  if (runAs !== 'setpriv') return;
  const parent = dirname(dir);
  const mode = statSync(parent).mode;
  if ((mode & 0o001) === 0) chmodSync(parent, (mode & 0o7777) | 0o001);
  if (!runs('setpriv', [...ids, 'test', '-w', dir, '-a', '-x', dir])) {
    throw new Error(
      `PostgreSQL runs as uid ${UNPRIVILEGED_ID} here (user namespaces are refused), and that user cannot reach ${dir}: ` +
        'every folder above it needs o+x. Choose a VAULT_DATA_DIR such a user can pass through, or start the vault as a normal user.',
    );
  }
}

/** In `setpriv` mode the programs themselves must be readable by uid 65534 (not under a 0700 /root, say). */
export function assertRunnable(runAs: RunAs, program: string): void {
  if (runAs === 'setpriv' && !runs('setpriv', [...ids, program, '--version'])) {
    throw new Error(
      `PostgreSQL runs as uid ${UNPRIVILEGED_ID} here (user namespaces are refused), and that user cannot run ${program}: install the vault where every user may read it.`,
    );
  }
}

function chownTree(path: string, uid: number, gid: number): void {
  const stat = lstatSync(path);
  if (stat.isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid);
  if (!stat.isSymbolicLink()) chownSync(path, uid, gid);
}

function runs(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 });
  return result.status === 0;
}
