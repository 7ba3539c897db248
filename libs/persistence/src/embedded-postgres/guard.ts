import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/**
 * PostgreSQL must never outlive the vault, even one killed with SIGKILL
 * (its postmaster notices only its own children dying, not its parent).
 *
 * On Linux `setpriv --pdeathsig INT` goes in front of the server: the kernel
 * sends it SIGINT (a fast shutdown: open transactions are rolled back, every
 * committed one is already on disk) the moment its parent dies. Elsewhere, or
 * without setpriv, a watcher shell reads a pipe whose only writer is this
 * process and signals the server at end of file.
 */
let pdeathsig: boolean | undefined;

export function guardPrefix(): string[] {
  pdeathsig ??= process.platform === 'linux' && spawnSync('setpriv', ['--pdeathsig', 'INT', 'true'], { stdio: 'ignore' }).status === 0;
  return pdeathsig ? ['setpriv', '--pdeathsig', 'INT'] : [];
}

/** Without pdeathsig: the watcher of `server`. Returns a function that dismisses it. */
export function watchParentDeath(server: ChildProcess): () => void {
  if (guardPrefix().length > 0 || !server.pid) return () => undefined;
  const watcher = spawn('sh', ['-c', `read _; kill -INT ${server.pid} 2>/dev/null`], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  watcher.unref();
  (watcher.stdin as unknown as { unref?: () => void }).unref?.();
  return () => watcher.kill('SIGKILL');
}
