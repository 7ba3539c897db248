import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** A running process: `cwd` is unknown when it cannot be read (another user's process without CAP_SYS_PTRACE, or one exiting). */
export interface LiveProcess {
  state: 'live';
  ppid: number;
  cwd?: string;
  argv: string[];
}

/** What Linux's /proc says of a pid. A zombie has exited and waits to be reaped by its parent: kill(pid, 0) still finds it; its working folder and command line are gone. */
export type ProcessState = { state: 'gone' } | { state: 'zombie' } | LiveProcess;

export function processState(pid: number): ProcessState {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return { state: 'gone' };
  }
  const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (state === 'X') return { state: 'gone' };
  if (state === 'Z') return { state: 'zombie' };
  let cwd: string | undefined;
  try {
    cwd = readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    cwd = undefined;
  }
  let argv: string[] = [];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    // gone meanwhile, or unreadable: no command line to go by
  }
  return { state: 'live', ppid: Number(ppid), cwd, argv };
}

/** What Linux's /proc says of a process; undefined once it is gone or a zombie (exited, waiting to be reaped). */
export function liveProcess(pid: number): LiveProcess | undefined {
  const found = processState(pid);
  return found.state === 'live' ? found : undefined;
}

/** Every live process whose working folder is `folder` (a real path): a PostgreSQL server and each of its processes work in their data folder. */
export function processesIn(folder: string): number[] {
  const found: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return found; // not Linux
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/cwd`) === folder) found.push(Number(name));
    } catch {
      // gone, a zombie, or not ours to read
    }
  }
  return found;
}

/** Waits until the process has exited (gone or a zombie); false after `timeoutMs`. */
export async function exited(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (liveProcess(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
