import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { postgresBinaries } from './binaries.js';
import { guardPrefix, watchParentDeath } from './guard.js';
import { OWNER_SETTING, clearStalePostmaster } from './postmaster.js';
import { asPostgresUser, assertRunnable, giveToPostgresUser, type RunAs } from './privileges.js';
import { DURABILITY, FOOTPRINT, MAX_SOCKET_PATH, SESSION_DEFAULTS, SOCKET_NAME, SUPERUSER, listening } from './settings.js';

/** PostgreSQL's own output: in the data folder, never on the vault's console. */
export const LOG_FILE = 'postgres.log';
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

/** One `postgres` process on one data folder, started and stopped by this process. */
export class PostgresServer {
  private stopping?: Promise<void>;

  private constructor(
    readonly pgdata: string,
    private readonly child: ChildProcess,
    private readonly exit: Promise<void>,
    private readonly dismissWatcher: () => void,
  ) {}

  get pid(): number {
    return this.child.pid!;
  }

  /** How node-postgres reaches it: the socket in the data folder. */
  clientConfig(database: string): pg.ClientConfig {
    return { host: this.pgdata, user: SUPERUSER, database };
  }

  /**
   * Starts the server on an initialised folder: a stale postmaster left
   * there by a killed vault is stopped first; ready once a connection over
   * the socket succeeds. `spawned` is called as soon as its process is;
   * `whenReady`, given that first connection (to the `postgres` database),
   * before it is closed: one connection fewer to make (issue 37).
   */
  static async start(
    pgdata: string,
    runAs: RunAs,
    { spawned, whenReady }: { spawned?: () => void; whenReady?: (client: pg.Client) => Promise<void> } = {},
  ): Promise<PostgresServer> {
    const socket = join(pgdata, SOCKET_NAME);
    if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
      throw new Error(`The embedded database's socket path ${socket} is longer than ${MAX_SOCKET_PATH} bytes: choose a shorter VAULT_DATA_DIR.`);
    }
    const { postgres } = postgresBinaries();
    assertRunnable(runAs, postgres);
    await clearStalePostmaster(pgdata);
    giveToPostgresUser(runAs, pgdata);

    const settings = [...listening(pgdata), ...DURABILITY, ...FOOTPRINT, ...SESSION_DEFAULTS, `${OWNER_SETTING}=${process.pid}`];
    const [command, ...args] = asPostgresUser(runAs, [...guardPrefix(), postgres, '-D', pgdata, ...settings.flatMap((s) => ['-c', s])]);
    const logFile = openLog(pgdata);
    let child: ChildProcess;
    try {
      // Its own session: a Ctrl-C in the vault's terminal reaches the vault, which stops the server after its own shutdown.
      child = spawn(command, args, { stdio: ['ignore', logFile, logFile], detached: true, env: { ...process.env, LC_ALL: 'C' } });
    } finally {
      closeSync(logFile);
    }
    spawned?.();
    const exit = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    const server = new PostgresServer(pgdata, child, exit, watchParentDeath(child));
    try {
      const client = await server.ready();
      try {
        await whenReady?.(client);
      } finally {
        await client.end();
      }
    } catch (error) {
      await server.stop();
      throw error;
    }
    child.once('exit', (code, signal) => {
      if (!server.stopping)
        process.stderr.write(`The embedded PostgreSQL server (${pgdata}) exited unexpectedly (${signal ?? code}); see ${join(pgdata, LOG_FILE)}.\n`);
    });
    return server;
  }

  /** SIGINT (fast shutdown), waited for; SIGQUIT then SIGKILL should it hang. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const escalate = async (signal: NodeJS.Signals, ms: number) => {
        if (this.child.exitCode !== null || this.child.signalCode !== null) return true;
        this.child.kill(signal);
        return Promise.race([this.exit.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
      };
      if (!(await escalate('SIGINT', STOP_TIMEOUT_MS)) && !(await escalate('SIGQUIT', 5_000))) await escalate('SIGKILL', 5_000);
      this.dismissWatcher();
    })();
    return this.stopping;
  }

  /** The first connection the server accepts, once it accepts one. */
  private async ready(): Promise<pg.Client> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let exited = false;
    void this.exit.then(() => (exited = true));
    for (;;) {
      if (exited) throw new Error(`The embedded PostgreSQL server did not start (${this.pgdata}):\n${logTail(this.pgdata)}`);
      const client = new pg.Client(this.clientConfig('postgres'));
      client.on('error', () => undefined);
      try {
        await client.connect();
        return client;
      } catch {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline)
          throw new Error(`The embedded PostgreSQL server did not answer within ${READY_TIMEOUT_MS / 1000} s (${this.pgdata}):\n${logTail(this.pgdata)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }
}

function openLog(pgdata: string): number {
  const path = join(pgdata, LOG_FILE);
  if (existsSync(path) && statSync(path).size > LOG_ROTATE_BYTES) renameSync(path, `${path}.1`);
  return openSync(path, 'a', 0o600);
}

export function logTail(pgdata: string, lines = 15): string {
  try {
    return readFileSync(join(pgdata, LOG_FILE), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
