// Child processes of the run. Each server is spawned as the leader of its own
// process group, so stopping it also stops whatever it spawned (the
// distributed launcher's gateway and services).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { waitUntil as waitUntilAnswers } from '../../../scripts/lib/wait-until.mjs';
import { ROOT_DIR, SERVER_LOGS_DIR } from './paths.ts';

export interface ProcessGroup {
  name: string;
  child: ChildProcess;
  pgid: number;
  logFile: string;
  /** Set once the leader has exited (or failed to spawn). */
  exit?: string;
  /** Resolves with the leader's exit code (null after a signal or a failed spawn). */
  exited: Promise<number | null>;
}

/** Process groups still running; killed outright should the runner exit without its teardown. */
const running = new Set<number>();
/** Synchronous clean-ups for the same case (an interrupted setup): temp dirs, the test database. */
const exitSteps = new Set<() => void>();

/** Registers a synchronous step for an exit without teardown; returns its removal. */
export function atAbnormalExit(step: () => void): () => void {
  exitSteps.add(step);
  return () => exitSteps.delete(step);
}

process.on('exit', () => {
  for (const pgid of running) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const step of [...exitSteps].reverse()) {
    try {
      step();
    } catch {
      // best effort
    }
  }
});

/** The run's log file of a server, and `spawnWith` given its descriptor for stdout and stderr (closed here once spawned). */
export function withLogFile<T>(name: string, spawnWith: (fd: number) => T): { logFile: string; spawned: T } {
  mkdirSync(SERVER_LOGS_DIR, { recursive: true });
  const logFile = join(SERVER_LOGS_DIR, `${name}.log`);
  const fd = openSync(logFile, 'a');
  try {
    return { logFile, spawned: spawnWith(fd) };
  } finally {
    closeSync(fd);
  }
}

export function spawnGroup(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string = ROOT_DIR): ProcessGroup {
  const { logFile, spawned: child } = withLogFile(name, (fd) => spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', fd, fd] }));
  const group = watched(name, child, logFile);
  if (child.pid) running.add(child.pid);
  return group;
}

/** A process the run watches (waitUntil fails early should it exit); a group of its own only if spawnGroup made it. */
export function watched(name: string, child: ChildProcess, logFile: string): ProcessGroup {
  let settle!: (code: number | null) => void;
  const exited = new Promise<number | null>((resolve) => (settle = resolve));
  const group: ProcessGroup = { name, child, pgid: child.pid ?? -1, logFile, exited };
  child.on('error', (error) => {
    group.exit ??= `failed to start: ${error.message}`;
    settle(null);
  });
  child.on('exit', (code, signal) => {
    group.exit ??= `exited with ${signal ?? code}`;
    settle(code);
  });
  return group;
}

/** Live (non-zombie) members of a process group, from /proc; undefined where /proc is missing. */
function members(pgid: number): number[] | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') found.push(Number(entry));
  }
  return found;
}

function groupAlive(pgid: number): boolean {
  const live = members(pgid);
  if (live) return live.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SIGTERM to the whole group, SIGKILL to whatever is left after the grace period. */
export async function stopGroup(group: ProcessGroup, graceMs = 5000): Promise<void> {
  const { pgid } = group;
  if (pgid <= 0) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pgid, signal);
    } catch {
      // nothing left in the group
    }
  };
  if (groupAlive(pgid)) {
    signalGroup('SIGTERM');
    const deadline = Date.now() + graceMs;
    while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
    if (groupAlive(pgid)) {
      signalGroup('SIGKILL');
      const killDeadline = Date.now() + 3000;
      while (groupAlive(pgid) && Date.now() < killDeadline) await sleep(100);
    }
  }
  running.delete(pgid);
  if (groupAlive(pgid)) throw new Error(`${group.name}: processes of group ${pgid} survived SIGKILL (${members(pgid)?.join(', ')})`);
}

export function logTail(group: Pick<ProcessGroup, 'logFile'>, lines = 40): string {
  try {
    const text = readFileSync(group.logFile, 'utf8').trimEnd();
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

/**
 * Polls `check` until it returns true. Fails early, with the end of the log,
 * when one of the watched processes exits, and after `timeoutMs`.
 */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  { timeoutMs, watch }: { timeoutMs: number; watch: readonly ProcessGroup[] },
): Promise<void> {
  const dead = () => watch.find((g) => g.exit !== undefined);
  try {
    await waitUntilAnswers(what, check, {
      timeoutMs,
      intervalMs: 250,
      stop: () => {
        const group = dead();
        return group ? `${group.name} ${group.exit}` : undefined;
      },
    });
  } catch (error) {
    // The end of the log of the process that died, or of every watched one when time ran out.
    const group = dead();
    const logs = (group ? [group] : watch).map((g) => `--- ${g.name} (${g.logFile}) ---\n${logTail(g)}`).join('\n');
    throw new Error(`${(error as Error).message}\n${logs}`);
  }
}

/** GET (or another method) answering `status` within two seconds. */
export async function answers(url: string, status = 200, init: RequestInit = {}): Promise<boolean> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  return response.status === status;
}

export function tcpOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Throws a clear error when something already listens on the port (never reuse a server). */
export async function assertPortFree(port: number, purpose: string): Promise<void> {
  const free = await new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
  if (!free || (await tcpOpen(port))) {
    throw new Error(`Port ${port} (${purpose}) is already in use. Stop whatever listens there; the end-to-end run starts its own servers.`);
  }
}

/** A port the system considers free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The absolute path of an executable on PATH (or in the sbin folders), if any. */
export function findExecutable(name: string): string | undefined {
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  return folders
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find((file) => existsSync(file));
}

const SERVER_VARIABLES = new Set([
  'PORT',
  'HOST',
  'LOG_LEVEL',
  'DATABASE_URL',
  'AUTH_DATABASE_URL',
  'PLANNER_DATABASE_URL',
  'NATS_URL',
  'REDIS_URL',
  'SESSION_TTL_SECONDS',
  'RPC_TIMEOUT_MS',
  'JOURNAL_DATABASE_URL',
  'AUDIT_DATABASE_URL',
  'VAULT_MASTER_KEY',
  'VAULT_DATA_DIR',
  'VAULT_LOGIN_RATE_LIMIT',
  'VAULT_LOCKOUT_FAILURES',
  'VAULT_LOCKOUT_SECONDS',
  'VAULT_TRUSTED_PROXIES',
  'MEDIA_DATABASE_URL',
  'S3_ENDPOINT',
  'S3_PUBLIC_ENDPOINT',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
]);

/** The runner's environment without anything that configures a vault (or Playwright), plus `extra`. */
export function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VAULT_') || key.startsWith('PW_') || key.startsWith('PLAYWRIGHT_') || SERVER_VARIABLES.has(key)) continue;
    env[key] = value;
  }
  return { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', FORCE_COLOR: '0', ...extra };
}
