// Measurements of "the process tree of a PID": a vault and whatever it starts
// (a database server and its backends, say), read from /proc. Nothing here
// knows which processes a mode has; each helper takes root PIDs and follows
// their children, so it keeps working when a process gains a child.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processName, processTree, readProc as read } from '../scripts/lib/process-tree.mjs';

export { processName, processTree };

/**
 * Resident memory of one process in MB: RSS (VmRSS), and PSS from
 * smaps_rollup where it is readable (PSS splits shared pages among their
 * sharers, so the PSS of a tree adds up; the RSS of forked children counts
 * the pages they share with their parent again). Undefined once it has gone.
 */
export function processMemory(pid) {
  const status = read(`/proc/${pid}/status`);
  const rss = status && /VmRSS:\s+(\d+) kB/.exec(status);
  if (!rss) return undefined;
  const pss = /^Pss:\s+(\d+) kB/m.exec(read(`/proc/${pid}/smaps_rollup`) ?? '');
  return { pid, name: processName(pid), rssMb: Number(rss[1]) / 1024, pssMb: pss ? Number(pss[1]) / 1024 : undefined };
}

/** One process's resident set (VmRSS) in bytes now; 0 once it has gone. */
export function residentBytes(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '')?.[1] ?? 0) * 1024;
}

/**
 * The highest resident set (VmRSS, bytes) of one process, read every `intervalMs`
 * until `stop()`: the figure of a memory budget "above idle".
 */
export function peakResident(pid, intervalMs = 20) {
  let peak = residentBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** A memory budget's figures, in MB: the resident set before the work, its peak during it, the rise, and whether it stayed under `budgetMb`. */
export function riseFigures(beforeBytes, peakBytes, budgetMb) {
  const rssRiseMb = (peakBytes - beforeBytes) / 1024 ** 2;
  return { rssBeforeMb: beforeBytes / 1024 ** 2, rssPeakMb: peakBytes / 1024 ** 2, rssRiseMb, budgetMb, met: rssRiseMb < budgetMb };
}

/** `vault RSS 120 -> peak 140 MB, rise 20.0 MB (budget < 64 MB: met)`. */
export function describeRise({ rssBeforeMb, rssPeakMb, rssRiseMb, budgetMb, met }) {
  return `vault RSS ${rssBeforeMb.toFixed(0)} -> peak ${rssPeakMb.toFixed(0)} MB, rise ${rssRiseMb.toFixed(1)} MB (budget < ${budgetMb} MB: ${met ? 'met' : 'NOT met'})`;
}

/** The memory of every process of the trees of `roots`, now. */
export function treeMemory(...roots) {
  return processTree(...roots)
    .map(processMemory)
    .filter(Boolean);
}

/**
 * Sums RSS and PSS (PSS only when every process's was readable), and with
 * `unique` the set's resident pages counted once (reading every page's
 * frame: tens of ms per process).
 */
export function totalMemory(processes, { unique = true } = {}) {
  const pss = processes.every((p) => p.pssMb !== undefined) ? processes.reduce((n, p) => n + p.pssMb, 0) : undefined;
  const uniqueMb = unique ? uniqueResidentMb(processes.map((p) => p.pid)) : undefined;
  return { rssMb: processes.reduce((n, p) => n + p.rssMb, 0), pssMb: pss, uniqueMb, count: processes.length };
}

const PAGE = 4096;
const PRESENT = 0x80000000;
const PFN_HIGH_BITS = 0x7fffff;

/**
 * The physical memory a set of processes occupies, each page once, in MB:
 * the union of the page frames of every resident page of each (from
 * /proc/<pid>/pagemap). RSS adds a page shared by N of them N times (the
 * node binary's code in each Node process, PostgreSQL's shared buffers in
 * each backend); PSS splits it with any process on the machine, this set or
 * not. Page frame numbers need CAP_SYS_ADMIN: undefined without it.
 */
export function uniqueResidentMb(pids) {
  const frames = new Set();
  let readable = false;
  for (const pid of pids) {
    const smaps = read(`/proc/${pid}/smaps`);
    if (!smaps) continue;
    let fd;
    try {
      fd = openSync(`/proc/${pid}/pagemap`, 'r');
    } catch {
      return undefined;
    }
    try {
      let range;
      for (const line of smaps.split('\n')) {
        const mapping = /^([0-9a-f]+)-([0-9a-f]+) /.exec(line);
        if (mapping) {
          range = [parseInt(mapping[1], 16), parseInt(mapping[2], 16)];
          continue;
        }
        // Only the mappings with resident pages are read (V8 reserves far more address space than it uses).
        if (!range || !line.startsWith('Rss:') || /^Rss:\s+0 kB/.test(line)) continue;
        const pages = (range[1] - range[0]) / PAGE;
        const entries = Buffer.alloc(pages * 8);
        const got = readSync(fd, entries, 0, entries.length, (range[0] / PAGE) * 8);
        for (let at = 0; at + 8 <= got; at += 8) {
          const high = entries.readUInt32LE(at + 4);
          if (!(high & PRESENT)) continue;
          const frame = (high & PFN_HIGH_BITS) * 2 ** 32 + entries.readUInt32LE(at);
          if (frame === 0) return undefined; // frame numbers hidden: not privileged
          readable = true;
          frames.add(frame);
        }
      }
    } catch {
      // The process ended while being read: its pages are gone too.
    } finally {
      closeSync(fd);
    }
  }
  return readable ? (frames.size * PAGE) / 2 ** 20 : undefined;
}

/**
 * Samples the trees of `roots` every `intervalMs` until stopped; `stop()`
 * returns each process's peak RSS and peak PSS (a process that came and went
 * in between is kept, under its PID), and the peak of the sums. The pages
 * counted once, which cost more to read, at most every `uniqueEveryMs`.
 */
export function samplePeaks(roots, intervalMs = 500, uniqueEveryMs = 500) {
  const peaks = new Map();
  let peakTotal = { rssMb: 0, pssMb: 0, uniqueMb: undefined };
  let uniqueAt = -Infinity;
  const sample = () => {
    const now = treeMemory(...roots);
    for (const p of now) {
      const seen = peaks.get(p.pid);
      peaks.set(p.pid, {
        pid: p.pid,
        name: p.name,
        rssMb: Math.max(seen?.rssMb ?? 0, p.rssMb),
        pssMb: p.pssMb === undefined ? seen?.pssMb : Math.max(seen?.pssMb ?? 0, p.pssMb),
      });
    }
    const unique = performance.now() - uniqueAt >= uniqueEveryMs;
    if (unique) uniqueAt = performance.now();
    const total = totalMemory(now, { unique });
    peakTotal = {
      rssMb: Math.max(peakTotal.rssMb, total.rssMb),
      pssMb: total.pssMb === undefined ? peakTotal.pssMb : Math.max(peakTotal.pssMb ?? 0, total.pssMb),
      uniqueMb: total.uniqueMb === undefined ? peakTotal.uniqueMb : Math.max(peakTotal.uniqueMb ?? 0, total.uniqueMb),
    };
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { processes: [...peaks.values()], total: peakTotal };
    },
  };
}

/** `12.3` or `12.3 (PSS 10.1)`. */
export const formatMemory = ({ rssMb, pssMb }) => `${rssMb.toFixed(0)}${pssMb === undefined ? '' : ` (PSS ${pssMb.toFixed(0)})`}`;

/**
 * Every process of a sample, largest first, those of the same name together:
 * `vault 129 (PSS 96) MB; postgres: postgres vault [local] idle x4 55 (PSS 15) MB; ...`.
 */
export function describeProcesses(processes) {
  const groups = new Map();
  for (const p of processes) {
    const group = groups.get(p.name) ?? { name: p.name, count: 0, rssMb: 0, pssMb: 0 };
    group.count += 1;
    group.rssMb += p.rssMb;
    group.pssMb = group.pssMb === undefined || p.pssMb === undefined ? undefined : group.pssMb + p.pssMb;
    groups.set(p.name, group);
  }
  return [...groups.values()]
    .sort((a, b) => b.rssMb - a.rssMb)
    .map((g) => `${g.name}${g.count > 1 ? ` x${g.count}` : ''} ${formatMemory(g)} MB`)
    .join('; ');
}

/** A Debian package's command, installed with apt-get when missing; throws (the bench stops, loudly) when it cannot be had. */
export function ensureDebianTool(command, pkg, why) {
  const found = () => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
  if (found()) return;
  process.stderr.write(`${command} is missing: installing ${pkg} with apt-get...\n`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const apt = (args) =>
    spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  const installed = apt(['update']).status === 0 && apt(['install', '-y', '--no-install-recommends', pkg]).status === 0;
  if (!installed || !found()) throw new Error(`${command} is needed (${why}) and could not be installed (apt-get install ${pkg} failed)`);
}

/** strace, installed when missing; throws when it cannot attach (ptrace not permitted). */
export function ensureStrace() {
  ensureDebianTool('strace', 'strace', 'to count fsyncs');
  const probe = spawnSync('strace', ['-f', '-c', '-e', 'trace=fsync', '-o', '/dev/null', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) throw new Error(`strace cannot trace here (${probe.stderr.trim()}): the fsync counts need ptrace`);
}

/** The calls per syscall of `strace -c`'s summary table. */
export function parseStraceSummary(text) {
  const calls = {};
  for (const line of text.split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/.exec(line);
    if (m && m[2] !== 'total') calls[m[2]] = (calls[m[2]] ?? 0) + Number(m[1]);
  }
  return calls;
}

/**
 * Counts the fsync and fdatasync calls of every process (every thread: Node's
 * fsyncs run on libuv's pool) of the trees of `roots` while `work` runs,
 * including processes they fork meanwhile (`strace -f`), by attaching to each
 * PID. Returns `{ fsync, fdatasync, total, result }` with what `work` returned.
 * @returns {Promise<{ [syscall: string]: any, total: number, pids: number[], result: any }>}
 */
export async function countFsyncs(roots, work, { syscalls = ['fsync', 'fdatasync'] } = {}) {
  const pids = processTree(...roots);
  if (pids.length === 0) throw new Error(`no process to trace (roots ${roots.join(', ')})`);
  const out = join(tmpdir(), `vault-bench-strace-${process.pid}-${Date.now()}.txt`);
  const strace = spawn('strace', ['-f', '-c', '-e', `trace=${syscalls.join(',')}`, '-o', out, ...pids.flatMap((pid) => ['-p', String(pid)])], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  strace.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => strace.on('exit', resolve));
  // Attached once it has said so for every PID given (with -f it also names each thread).
  const started = Date.now();
  while ((stderr.match(/Process \d+ attached/g) ?? []).length < pids.length) {
    if (strace.exitCode !== null) throw new Error(`strace could not attach: ${stderr.trim()}`);
    if (Date.now() - started > 10_000) throw new Error(`strace did not attach to ${pids.join(', ')} within 10 s: ${stderr.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  let result;
  try {
    result = await work();
  } finally {
    // SIGINT: strace detaches and writes its summary.
    strace.kill('SIGINT');
    await exited;
  }
  const summary = existsSync(out) ? readFileSync(out, 'utf8') : '';
  rmSync(out, { force: true });
  const calls = parseStraceSummary(summary);
  const counted = Object.fromEntries(syscalls.map((name) => [name, calls[name] ?? 0]));
  return { ...counted, total: Object.values(counted).reduce((a, b) => a + b, 0), pids, result };
}
