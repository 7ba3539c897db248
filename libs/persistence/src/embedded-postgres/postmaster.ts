import { readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { exited, liveProcess, processState, processesIn, signal, type LiveProcess } from './processes.js';

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
 * Before a server starts on `pgdata`, what a vault killed before it could
 * stop its server left there (issue 31: the vault and its PostgreSQL killed
 * together, by an OOM kill, a container killed or a power cut):
 *
 * - the postmaster its postmaster.pid names, still running on this folder:
 *   refused while the process that started it lives
 *   (EmbeddedDatabaseInUseError), otherwise stopped (SIGINT, waited for);
 * - a lock file (postmaster.pid, and the socket's `.s.PGSQL.5432.lock`
 *   beside it) whose process is dead but not reaped (a zombie, for about a
 *   second, or for good under a PID 1 that does not reap), or whose pid is
 *   now another process's (this one's, one in this folder that is no
 *   postgres, any other): removed, as PostgreSQL would refuse it (it takes
 *   any process kill(pid, 0) finds for a live server). One of a postgres
 *   whose folder cannot be told is left to PostgreSQL. Nothing but a
 *   postmaster of this folder or the processes of a dead one is ever
 *   signalled;
 * - the processes of a dead postmaster (backends, checkpointer...): waited
 *   for, as PostgreSQL refuses to start while one is still attached to the
 *   old shared memory; one still busy in a query after 2 s is ended;
 * - an empty or cut lock file (a power cut while it was written):
 *   removed when no postgres process works in this folder.
 *
 * A lock file whose process is gone is removed when the shared memory it
 * names is held by no process (PostgreSQL's own test, made before the pid
 * can be handed out again: sharedMemoryHeld), else left to PostgreSQL. Its
 * check also keeps a second server off a folder whose server still runs,
 * whatever this one decides.
 */
export async function clearStalePostmaster(pgdata: string): Promise<void> {
  let folder: string;
  try {
    folder = realpathSync(pgdata);
  } catch {
    return; // no folder (a partial one removed meanwhile): nothing of a server there
  }
  const dataLock = join(pgdata, 'postmaster.pid');
  const pid = pidOf(readLock(dataLock));
  if (pid !== undefined && pid !== process.pid) {
    const holder = processState(pid);
    if (holder.state === 'live' && postmasterOf(holder, folder) === 'yes') {
      const owner = ownerOf(holder.argv);
      if (owner !== undefined && owner === holder.ppid && owner !== process.pid) throw new EmbeddedDatabaseInUseError(pgdata, owner);
      await stopPostmaster(pid);
    }
  }
  await endOrphans(folder);
  // Read before either lock file goes: whether the server that wrote them still holds its shared memory.
  const memoryHeld = sharedMemoryHeld(readLock(dataLock));
  // PostgreSQL's lock files, the data folder's and its socket's (in the same folder), each checked the same way.
  for (const lockFile of [dataLock, ...socketLocks(pgdata)]) {
    const lock = readLock(lockFile);
    if (lock === undefined) continue;
    const named = pidOf(lock);
    if (named === undefined) {
      if (!processesIn(folder).some((p) => isPostgres(liveProcess(p)?.argv[0]))) removeLock(lockFile, lock);
      continue;
    }
    const holder = processState(named);
    if (holder.state === 'gone' && memoryHeld !== false) continue;
    if (holder.state === 'live' && named !== process.pid && postmasterOf(holder, folder) !== 'no') continue;
    removeLock(lockFile, lock);
  }
}

/**
 * Whether the server whose postmaster.pid this is still holds its shared
 * memory: the segment its seventh line names (key, then id) attached to a
 * process, in /proc/sysvipc/shm. `false` when no postmaster.pid is there at
 * all, or it names a segment that is gone or that nothing holds; undefined
 * when that cannot be told (an older or cut file, /proc unreadable).
 *
 * A lock whose process is gone PostgreSQL takes over unless that memory is
 * held (PGSharedMemoryIsInUse), but it looks only once it runs: by then a
 * vault started again in a new container (its pids handed out from 1 again)
 * may have given the pid to another process of its own, and PostgreSQL
 * refuses (`lock file "postmaster.pid" already exists`). Decided here, with
 * PostgreSQL's own test, before anything else starts.
 */
function sharedMemoryHeld(lock: string | undefined): boolean | undefined {
  if (lock === undefined) return false;
  const ids = /^\s*(\d+)\s+(\d+)\s*$/.exec(lock.split('\n')[6] ?? '');
  if (!ids) return undefined;
  let table: string;
  try {
    table = readFileSync('/proc/sysvipc/shm', 'utf8');
  } catch {
    return undefined;
  }
  // key shmid perms size cpid lpid nattch ...
  const segment = table
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1] === ids[2]);
  return segment !== undefined && Number(segment[6]) > 0;
}

/** SIGINT, then SIGQUIT (immediate shutdown; crash recovery at the next start) if it does not end in time. */
export async function stopPostmaster(pid: number, timeoutMs = 30_000): Promise<void> {
  signal(pid, 'SIGINT');
  if (await exited(pid, timeoutMs)) return;
  signal(pid, 'SIGQUIT');
  if (await exited(pid, 5_000)) return;
  throw new Error(`The PostgreSQL server ${pid} did not stop after SIGINT and SIGQUIT.`);
}

/**
 * Whether a live process is a postmaster of `folder`: the postgres program
 * itself (its processes are titled `postgres: ...`) working in the folder.
 * Where its working folder cannot be read (a root vault without
 * CAP_SYS_PTRACE, as in a container, and PostgreSQL run as uid 65534), its
 * `-D` says; `unknown` for a postgres whose folder neither says.
 */
function postmasterOf(found: LiveProcess, folder: string): 'yes' | 'no' | 'unknown' {
  if (basename(found.argv[0] ?? '') !== 'postgres') return 'no';
  const serves = found.cwd ?? dataFolderOf(found.argv);
  return serves === undefined ? 'unknown' : serves === folder ? 'yes' : 'no';
}

/** The real path of `-D <folder>` on a postgres command line; undefined when it names none or only a relative one. */
function dataFolderOf(argv: string[]): string | undefined {
  const at = argv.indexOf('-D');
  const named = at >= 0 ? argv[at + 1] : argv.find((arg) => arg.startsWith('-D') && arg.length > 2)?.slice(2);
  if (!named || !isAbsolute(named)) return undefined;
  try {
    return realpathSync(named);
  } catch {
    return undefined;
  }
}

function isPostgres(argv0: string | undefined): boolean {
  return argv0 !== undefined && (basename(argv0) === 'postgres' || argv0.startsWith('postgres: '));
}

/**
 * The processes of a dead postmaster of `folder`: titled `postgres: ...`,
 * working in the folder, their parent no longer a process of it. Each ends
 * once it notices its postmaster's death, except one busy in a query; they
 * are waited for 2 s, then ended (SIGQUIT, then SIGKILL), each checked again
 * just before it is signalled. One that still holds on is left to
 * PostgreSQL, which then refuses to start and says why.
 */
async function endOrphans(folder: string): Promise<void> {
  const orphans = () => processesIn(folder).filter((pid) => isOrphanOf(pid, folder));
  for (const [name, waitMs] of [
    [undefined, 2_000],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    if (orphans().length === 0) return;
    if (name) for (const pid of orphans()) signal(pid, name);
    const deadline = Date.now() + waitMs;
    while (orphans().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function isOrphanOf(pid: number, folder: string): boolean {
  const found = liveProcess(pid);
  if (!found?.argv[0]?.startsWith('postgres: ') || found.cwd !== folder) return false;
  return liveProcess(found.ppid)?.cwd !== folder;
}

/** The socket's lock files: `.s.PGSQL.<port>.lock` beside the socket, in the data folder. */
function socketLocks(pgdata: string): string[] {
  return readdirSync(pgdata)
    .filter((name) => /^\.s\.PGSQL\.\d+\.lock$/.test(name))
    .map((name) => join(pgdata, name));
}

/** The pid on a lock file's first line; undefined for none, an empty file or one cut short. */
function pidOf(lock: string | undefined): number | undefined {
  const pid = Number(lock?.split('\n')[0] || Number.NaN);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function readLock(lockFile: string): string | undefined {
  try {
    return readFileSync(lockFile, 'utf8');
  } catch {
    return undefined;
  }
}

/** Removed only if it still says what was judged: a server starting meanwhile writes its own. */
function removeLock(lockFile: string, judged: string): void {
  if (readLock(lockFile) === judged) rmSync(lockFile, { force: true });
}

function ownerOf(argv: string[]): number | undefined {
  const setting = argv.find((arg) => arg.startsWith(`${OWNER_SETTING}=`));
  return setting ? Number(setting.slice(OWNER_SETTING.length + 1)) : undefined;
}
