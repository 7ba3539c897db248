import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  EmbeddedDatabaseInUseError,
  LOG_FILE,
  UNPRIVILEGED_ID,
  detectRunAs,
  openConnection,
  openEmbeddedDatabase,
  postgresBinaries,
  restoreLibraryLinks,
} from '../src/index.js';
import { clearStalePostmaster } from '../src/embedded-postgres/postmaster.js';
import { assertBuilt, startChild, waitForOutput } from './children.js';

/**
 * The embedded mode's own PostgreSQL server (ADR 0009): made on the first
 * start, durable, reachable only through a socket in its owner-only folder,
 * one per data folder per process, never outliving the process that
 * started it, and run as an unprivileged user when the vault is root.
 */
describe('the embedded PostgreSQL server', () => {
  const work = mkdtempSync(join(tmpdir(), 'vault-embedded-pg-'));
  const strays: number[] = [];

  afterAll(() => {
    for (const pid of strays) if (alive(pid)) process.kill(pid, 'SIGINT');
    rmSync(work, { recursive: true, force: true });
  });

  it('makes an owner-only cluster on the first start, durable, with only a socket inside it and its log beside', async () => {
    const dataDir = join(work, 'first');
    const connection = await openConnection({ kind: 'embedded', dataDir });
    try {
      if (connection.kind !== 'postgres') throw new Error('expected a pool');
      const setting = async (name: string) => (await connection.pool.query<{ v: string }>('select current_setting($1) as v', [name])).rows[0].v;
      const pgdata = join(dataDir, 'postgres');
      expect({
        fsync: await setting('fsync'),
        synchronous_commit: await setting('synchronous_commit'),
        full_page_writes: await setting('full_page_writes'),
        listen_addresses: await setting('listen_addresses'),
        unix_socket_directories: await setting('unix_socket_directories'),
        database: await setting('data_directory'),
        TimeZone: await setting('TimeZone'),
      }).toEqual({
        fsync: 'on',
        synchronous_commit: 'on',
        full_page_writes: 'on',
        listen_addresses: '',
        unix_socket_directories: pgdata,
        database: pgdata,
        TimeZone: 'UTC',
      });
      expect((await connection.pool.query('select current_database() as d, inet_server_addr() as tcp')).rows[0]).toEqual({ d: 'vault', tcp: null });
      expect(statSync(pgdata).mode & 0o777).toBe(0o700);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(readFileSync(join(pgdata, LOG_FILE), 'utf8')).toContain('database system is ready to accept connections');
    } finally {
      await connection.close();
    }
  });

  it('runs one server per data folder in a process, shared, and stops it with the last user', async () => {
    const [a, b] = [join(work, 'shared-a'), join(work, 'shared-b')];
    const [a1, a2, b1] = await Promise.all([openEmbeddedDatabase({ dataDir: a }), openEmbeddedDatabase({ dataDir: a }), openEmbeddedDatabase({ dataDir: b })]);
    expect(a1.pid).toBe(a2.pid);
    expect(b1.pid).not.toBe(a1.pid);
    await a1.release();
    expect(alive(a2.pid)).toBe(true);
    const client = new pg.Client(a2.clientConfig());
    await client.connect();
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.end();
    await Promise.all([a2.release(), b1.release()]);
    expect([alive(a1.pid), alive(b1.pid)]).toEqual([false, false]);
    // A new start after a stop: a new server, same data.
    const again = await openEmbeddedDatabase({ dataDir: a });
    expect(again.pid).not.toBe(a1.pid);
    await again.release();
  });

  it('refuses a folder whose server another live process holds, and leaves no server behind that process killed with SIGKILL', async () => {
    assertBuilt();
    const dataDir = join(work, 'killed');
    const child = startChild([dataDir, 'hold']);
    await waitForOutput(child, /ready/);
    const postmaster = postmasterPid(dataDir);
    strays.push(postmaster);
    // As the CLI would while the vault runs.
    await expect(openConnection({ kind: 'embedded', dataDir })).rejects.toThrow(EmbeddedDatabaseInUseError);
    await expect(openConnection({ kind: 'embedded', dataDir })).rejects.toThrow(`is in use by process ${child.process.pid}`);

    child.process.kill('SIGKILL');
    await child.exited;
    const killedAt = Date.now();
    while (serversOn(join(dataDir, 'postgres')).length > 0 && Date.now() - killedAt < 2000) await new Promise((resolve) => setTimeout(resolve, 10));
    const left = serversOn(join(dataDir, 'postgres'));
    process.stdout.write(`after kill -9 of the parent: ${left.length} postgres processes on its folder, ${Date.now() - killedAt} ms\n`);
    expect(left).toEqual([]);
    expect(readFileSync(join(dataDir, 'postgres', LOG_FILE), 'utf8')).toMatch(/received fast shutdown request[\s\S]*database system is shut down\s*$/);

    // The next start finds everything in order.
    const connection = await openConnection({ kind: 'embedded', dataDir });
    await connection.close();
  });

  it('stops a stale postmaster left on its folder by a vault that was killed, then starts its own', async () => {
    const dataDir = join(work, 'stale');
    const pgdata = join(dataDir, 'postgres');
    const first = await openConnection({ kind: 'embedded', dataDir });
    if (first.kind !== 'postgres') throw new Error('expected a pool');
    await first.pool.query('create table kept (v text)');
    await first.pool.query("insert into kept values ('before the kill')");
    await first.close();

    // A postmaster with no guard, whose recorded owner is gone: what a vault killed before ADR 0009's guards, or during a start, leaves.
    const owner = spawn('true');
    await new Promise((resolve) => owner.on('exit', resolve));
    const [command, ...args] = postmasterCommand(pgdata, owner.pid!);
    const stale = spawn(command, args, { stdio: 'ignore', detached: true });
    stale.unref();
    strays.push(stale.pid!);
    const deadline = Date.now() + 10_000;
    while (!(existsSync(join(pgdata, 'postmaster.pid')) && readFileSync(join(pgdata, 'postmaster.pid'), 'utf8').includes('ready'))) {
      if (Date.now() > deadline) throw new Error('the stale postmaster did not start');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const database = await openEmbeddedDatabase({ dataDir });
    try {
      expect(alive(stale.pid!)).toBe(false);
      expect(database.pid).not.toBe(stale.pid);
      const client = new pg.Client(database.clientConfig());
      await client.connect();
      expect((await client.query('select v from kept')).rows).toEqual([{ v: 'before the kill' }]);
      await client.end();
    } finally {
      await database.release();
    }
  });

  it('starts over a postmaster killed with its vault that stays a zombie (nothing reaps it), and ends a backend it orphaned mid-query', async () => {
    const dataDir = join(work, 'zombie');
    const pgdata = join(dataDir, 'postgres');
    await keepRow(dataDir, 'before the kill');
    // Killed together with its vault under a PID 1 that never reaps (a container without an init): the postmaster stays a zombie, which kill(pid, 0) still finds.
    const { pid: postmaster, parent } = await underNonReapingParent(postmasterCommand(pgdata, await deadPid()));
    strays.push(parent.pid!);
    await serverReady(pgdata);
    // A backend busy in a query when its postmaster dies does not notice it: it holds the old shared memory, and PostgreSQL refuses to start while it does.
    const busy = new pg.Client({ host: pgdata, user: 'postgres', database: 'vault' });
    busy.on('error', () => undefined);
    await busy.connect();
    const backend = (await busy.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    strays.push(backend);
    void busy.query('do $$ begin loop end loop; end $$').catch(() => undefined);
    process.kill(postmaster, 'SIGKILL');
    await until(() => stateOf(postmaster) === 'Z');

    const started = Date.now();
    const database = await openEmbeddedDatabase({ dataDir });
    try {
      process.stdout.write(`start over a zombie postmaster and a busy orphaned backend: ${Date.now() - started} ms\n`);
      // The postmaster is still a zombie: the start did without its being reaped. The backend has ended (reaped by PID 1 or not yet).
      expect({ postmaster: stateOf(postmaster), backend: stateOf(backend) === 'live' ? 'running' : 'ended' }).toEqual({ postmaster: 'Z', backend: 'ended' });
      const client = new pg.Client(database.clientConfig());
      await client.connect();
      expect((await client.query('select v from kept')).rows).toEqual([{ v: 'before the kill' }]);
      await client.end();
    } finally {
      await database.release();
      await busy.end().catch(() => undefined);
    }
  }, 60_000);

  it('starts whatever process its postmaster.pid names that is not a postgres of its folder, and signals none of them', async () => {
    const dataDir = join(work, 'not-postgres');
    const pgdata = join(dataDir, 'postgres');
    await keepRow(dataDir, 'kept');
    const inFolder = spawn('sleep', ['600'], { cwd: pgdata, stdio: 'ignore' });
    const elsewhere = spawn('sleep', ['600'], { stdio: 'ignore' });
    const zombie = await underNonReapingParent(['sleep', '0.2']);
    strays.push(inFolder.pid!, elsewhere.pid!, zombie.parent.pid!);
    await until(() => stateOf(zombie.pid) === 'Z');
    const named: Array<[string, string]> = [
      ['a process working in the data folder (a reused pid)', String(inFolder.pid)],
      ['a process elsewhere (a reused pid)', String(elsewhere.pid)],
      ['this very process', String(process.pid)],
      ['a zombie that is no postgres', String(zombie.pid)],
      ['nothing (a lock file a power cut left empty)', ''],
    ];
    const starts: string[] = [];
    for (const [what, pid] of named) {
      writeFileSync(join(pgdata, 'postmaster.pid'), pid ? `${pid}\n${pgdata}\n` : '', { mode: 0o600 });
      const database = await openEmbeddedDatabase({ dataDir }).catch((error: Error) => error);
      if (database instanceof Error) {
        starts.push(`${what}: ${database.message.split('\n').findLast((line) => line.includes('FATAL')) ?? database.message}`);
        continue;
      }
      const client = new pg.Client(database.clientConfig());
      await client.connect();
      starts.push(`${what}: ${(await client.query<{ v: string }>('select v from kept')).rows[0].v}`);
      await client.end();
      await database.release();
    }
    const untouched = [inFolder, elsewhere].map((child) => child.signalCode ?? stateOf(child.pid!));
    expect({ starts, untouched }).toEqual({ starts: named.map(([what]) => `${what}: kept`), untouched: ['live', 'live'] });
    for (const child of [inFolder, elsewhere]) child.kill('SIGKILL');
  }, 60_000);

  it('takes over a lock file whose process is gone before PostgreSQL looks (a container started again hands its pids out again), unless its shared memory is held', async () => {
    const dataDir = join(work, 'pid-handed-out-again');
    const pgdata = join(dataDir, 'postgres');
    await keepRow(dataDir, 'kept');
    const lockFile = join(pgdata, 'postmaster.pid');
    // postmaster.pid as a server killed with its container leaves it: its pid, and its shared memory's key and id on line 7.
    const lockOf = async (memory: string) => `${await deadPid()}\n${pgdata}\n1796160000\n5432\n${pgdata}\n\n${memory}\nready   \n`;
    const segments = () =>
      readFileSync('/proc/sysvipc/shm', 'utf8')
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/));
    // A segment that is gone: PostgreSQL would take the lock over once it found the pid free, but by then the pid may be
    // another process's. Removed here, before anything else starts.
    const gone = Math.max(0, ...segments().map((fields) => Number(fields[1] ?? 0))) + 1000;
    writeFileSync(lockFile, await lockOf(`   5432001    ${gone}`), { mode: 0o600 });
    writeFileSync(join(pgdata, '.s.PGSQL.5432.lock'), (await lockOf('')).split('\n').slice(0, 6).join('\n'), { mode: 0o600 });
    await clearStalePostmaster(pgdata);
    expect([existsSync(lockFile), existsSync(join(pgdata, '.s.PGSQL.5432.lock'))]).toEqual([false, false]);

    // A segment some process still holds (another server's, here): left to PostgreSQL, which looks at whose it is.
    const other = await openEmbeddedDatabase({ dataDir: join(work, 'pid-handed-out-again-other') });
    try {
      const held = readFileSync(join(other.pgdata, 'postmaster.pid'), 'utf8').split('\n')[6];
      writeFileSync(lockFile, await lockOf(held), { mode: 0o600 });
      await clearStalePostmaster(pgdata);
      expect(existsSync(lockFile)).toBe(true);
      const database = await openEmbeddedDatabase({ dataDir });
      const client = new pg.Client(database.clientConfig());
      await client.connect();
      expect((await client.query<{ v: string }>('select v from kept')).rows).toEqual([{ v: 'kept' }]);
      await client.end();
      await database.release();
    } finally {
      await other.release();
    }
  }, 60_000);

  it('as root, runs PostgreSQL as uid 65534: in a user namespace, or through setpriv where namespaces are refused', async () => {
    if (process.getuid?.() !== 0) return;
    const detected = detectRunAs();
    process.stdout.write(`root here runs PostgreSQL through: ${detected}\n`);
    expect(['unshare', 'setpriv']).toContain(detected);

    const dataDir = join(work, 'setpriv');
    // uid 65534 must pass through every folder above VAULT_DATA_DIR (the runner reports one it cannot pass).
    chmodSync(work, 0o711);
    const database = await openEmbeddedDatabase({ dataDir, runAs: 'setpriv' });
    try {
      expect(statSync(join(dataDir, 'postgres')).uid).toBe(UNPRIVILEGED_ID);
      expect(uidOf(database.pid)).toBe(UNPRIVILEGED_ID);
      // The data folder itself stays root's and owner-only, but passable (everything in it is owner-only).
      expect(statSync(dataDir).mode & 0o777).toBe(0o701);
      const client = new pg.Client(database.clientConfig());
      await client.connect();
      await client.query('create table t (v text)');
      await client.query("insert into t values ('as nobody')");
      await client.end();
    } finally {
      await database.release();
    }
    // The same folder, now under the detected way (unshare here): taken back, rows intact.
    const back = await openEmbeddedDatabase({ dataDir });
    try {
      expect(statSync(join(dataDir, 'postgres')).uid).toBe(detected === 'setpriv' ? UNPRIVILEGED_ID : 0);
      const client = new pg.Client(back.clientConfig());
      await client.connect();
      expect((await client.query('select v from t')).rows).toEqual([{ v: 'as nobody' }]);
      await client.end();
    } finally {
      await back.release();
    }
  });

  it('runs for a vault started as a normal user (uid 65534), spawned directly', async () => {
    if (process.getuid?.() !== 0) return;
    assertBuilt();
    chmodSync(work, 0o711);
    const home = join(work, 'user');
    mkdirSync(home, { mode: 0o755 });
    chownSync(home, UNPRIVILEGED_ID, UNPRIVILEGED_ID);
    const dataDir = join(home, 'data');
    const child = startChild([dataDir, 'write-read', '3'], ['setpriv', `--reuid=${UNPRIVILEGED_ID}`, `--regid=${UNPRIVILEGED_ID}`, '--clear-groups']);
    expect([await child.exited, child.output().trim()]).toEqual([0, `3 ${join(dataDir, 'postgres')}`]);
    expect(statSync(join(dataDir, 'postgres')).uid).toBe(UNPRIVILEGED_ID);
    expect(serversOn(join(dataDir, 'postgres'))).toEqual([]);
  });
});

describe('the PostgreSQL binaries package', () => {
  it('gets back the library links an install without scripts (npm --ignore-scripts) leaves out, and PostgreSQL runs', async () => {
    const work = mkdtempSync(join(tmpdir(), 'vault-pg-binaries-'));
    try {
      const { native } = postgresBinaries();
      const copy = join(work, 'native');
      cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
      const links = JSON.parse(readFileSync(join(copy, 'pg-symlinks.json'), 'utf8')) as Array<{ target: string }>;
      for (const { target } of links) unlinkSync(join(work, target));
      const ran = () => spawnSync(join(copy, 'bin', 'postgres'), ['--version'], { encoding: 'utf8' });
      expect(ran().status).not.toBe(0);
      restoreLibraryLinks(copy, 'a copy of the package');
      expect(links.every(({ target }) => readlinkSync(join(work, target)).startsWith('lib'))).toBe(true);
      expect([ran().status, ran().stdout]).toEqual([0, expect.stringContaining('PostgreSQL) 18.')]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2)[0]);
  } catch {
    return false;
  }
}

function postmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function uidOf(pid: number): number {
  return Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

/** Live processes whose working directory is this PostgreSQL data folder (the postmaster and every child chdir there). */
function serversOn(pgdata: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === pgdata && alive(pid);
      } catch {
        return false;
      }
    });
}

/** The command of a postmaster on `pgdata` as a killed vault left it (no guard), its recorded owner `ownerPid`, as the detected user. */
function postmasterCommand(pgdata: string, ownerPid: number): string[] {
  const { postgres } = postgresBinaries();
  const runAs = detectRunAs();
  const prefix =
    runAs === 'unshare'
      ? ['unshare', '--user', `--map-user=${UNPRIVILEGED_ID}`, `--map-group=${UNPRIVILEGED_ID}`]
      : runAs === 'setpriv'
        ? ['setpriv', `--reuid=${UNPRIVILEGED_ID}`, `--regid=${UNPRIVILEGED_ID}`, '--clear-groups']
        : [];
  return [
    ...prefix,
    postgres,
    '-D',
    pgdata,
    '-c',
    'listen_addresses=',
    '-c',
    `unix_socket_directories=${pgdata}`,
    '-c',
    'io_method=sync',
    '-c',
    `vault.owner_pid=${ownerPid}`,
  ];
}

/** A pid that was a process a moment ago. */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

/**
 * `command` as the child of a process that never reaps it (its shell execs
 * `sleep`): once it exits it stays a zombie while that parent lives, as
 * under a PID 1 that does not reap.
 */
async function underNonReapingParent(command: string[]): Promise<{ pid: number; parent: ReturnType<typeof spawn> }> {
  const parent = spawn('sh', ['-c', '"$@" >/dev/null 2>&1 & echo $!; exec sleep 600', 'sh', ...command], {
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  parent.unref();
  const line = await new Promise<string>((resolve, reject) => {
    let output = '';
    parent.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(output.split('\n')[0]);
    });
    parent.once('exit', () => reject(new Error(`sh exited before it started ${command[0]}`)));
  });
  (parent.stdout as unknown as { unref?: () => void }).unref?.();
  return { pid: Number(line), parent };
}

/** A table `kept` with one row in the embedded database of `dataDir`, which is then stopped. */
async function keepRow(dataDir: string, value: string): Promise<void> {
  const connection = await openConnection({ kind: 'embedded', dataDir });
  if (connection.kind !== 'postgres') throw new Error('expected a pool');
  await connection.pool.query('create table kept (v text)');
  await connection.pool.query('insert into kept values ($1)', [value]);
  await connection.close();
}

async function serverReady(pgdata: string): Promise<void> {
  await until(() => existsSync(join(pgdata, 'postmaster.pid')) && readFileSync(join(pgdata, 'postmaster.pid'), 'utf8').includes('ready'), 10_000);
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${condition}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function stateOf(pid: number): 'live' | 'Z' | 'gone' {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state === 'Z' ? 'Z' : state === 'X' ? 'gone' : 'live';
  } catch {
    return 'gone';
  }
}
