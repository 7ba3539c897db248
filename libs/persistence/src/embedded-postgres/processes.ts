import { readFileSync, readlinkSync } from 'node:fs';

/** What Linux's /proc says of a process; undefined once it is gone or a zombie (exited, waiting to be reaped). */
export function liveProcess(pid: number): { ppid: number; cwd?: string; argv: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') return undefined;
    let cwd: string | undefined;
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      cwd = undefined;
    }
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { ppid: Number(ppid), cwd, argv };
  } catch {
    return undefined;
  }
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
