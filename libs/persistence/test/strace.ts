import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** fsync and fdatasync calls counted by `strace -f -c` attached to some processes while `work` runs. */
export async function countSyncCalls(pids: number[], work: () => Promise<void>, output: string): Promise<{ fsync: number; fdatasync: number }> {
  const strace = spawn('strace', ['-f', '-c', '-e', 'trace=fsync,fdatasync', '-o', output, ...pids.flatMap((pid) => ['-p', String(pid)])], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  strace.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => strace.on('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  // Attached when every process (and its threads) names strace as its tracer.
  while (!pids.every((pid) => tracerOf(pid) === strace.pid)) {
    if (strace.exitCode !== null || Date.now() > deadline) throw new Error(`strace did not attach: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  try {
    await work();
  } finally {
    strace.kill('SIGINT');
    await exited;
  }
  const calls = (name: string) => {
    const line = readFileSync(output, 'utf8')
      .split('\n')
      .find((l) => l.trim().endsWith(` ${name}`));
    // % time, seconds, usecs/call, calls, [errors,] syscall
    return line ? Number(line.trim().split(/\s+/)[3]) : 0;
  };
  return { fsync: calls('fsync'), fdatasync: calls('fdatasync') };
}

function tracerOf(pid: number): number | undefined {
  try {
    const match = /TracerPid:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** A process's direct children (Linux /proc). */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((child) => {
      try {
        const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    });
}
