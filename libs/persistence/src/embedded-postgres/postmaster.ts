import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { exited, liveProcess, signal } from './processes.js';

/** Given to every server we start (`-c vault.owner_pid=...`): which process started it, readable in its command line. */
export const OWNER_SETTING = 'vault.owner_pid';

export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly pgdata: string,
    readonly ownerPid: number,
  ) {
    super(
      `The embedded database in ${pgdata} is in use by process ${ownerPid} (a running vault?). ` +
        'Stop the embedded vault first: its database serves one vault process at a time.',
    );
  }
}

/**
 * Before a server starts on `pgdata`: a postmaster still running there is
 * either another live process's (refused: EmbeddedDatabaseInUseError) or
 * stale, left by a vault that was killed before it could stop it; a stale
 * one gets SIGINT (fast shutdown) and is waited for. A postmaster.pid whose
 * process is not a postgres on this folder (a reused pid) is removed.
 */
export async function clearStalePostmaster(pgdata: string): Promise<void> {
  const lockFile = join(pgdata, 'postmaster.pid');
  if (!existsSync(lockFile)) return;
  const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  const process_ = liveProcess(pid);
  if (!process_) return; // PostgreSQL removes a lock file whose process is gone.
  if (process_.cwd === undefined || process_.cwd !== realpathSync(pgdata)) {
    // Not a postmaster on this folder: the pid was reused after a crash or a reboot.
    if (!process_.argv[0]?.endsWith('postgres') || process_.cwd !== undefined) rmSync(lockFile, { force: true });
    return;
  }
  const owner = ownerOf(process_.argv);
  if (owner !== undefined && owner === process_.ppid && owner !== process.pid) throw new EmbeddedDatabaseInUseError(pgdata, owner);
  await stopPostmaster(pid);
}

/** SIGINT, then SIGQUIT (immediate shutdown; crash recovery at the next start) if it does not end in time. */
export async function stopPostmaster(pid: number, timeoutMs = 30_000): Promise<void> {
  signal(pid, 'SIGINT');
  if (await exited(pid, timeoutMs)) return;
  signal(pid, 'SIGQUIT');
  if (await exited(pid, 5_000)) return;
  throw new Error(`The PostgreSQL server ${pid} did not stop after SIGINT and SIGQUIT.`);
}

function ownerOf(argv: string[]): number | undefined {
  const setting = argv.find((arg) => arg.startsWith(`${OWNER_SETTING}=`));
  return setting ? Number(setting.slice(OWNER_SETTING.length + 1)) : undefined;
}
