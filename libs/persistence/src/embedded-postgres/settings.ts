/**
 * The server's settings, given on its command line at every start (never
 * edited into postgresql.conf), so the code is the whole configuration.
 * Research for issue 14 (docs/adr/0009-embedded-postgresql.md).
 */

/** Durability: every acknowledged commit has had its WAL flushed (one fdatasync per commit). PostgreSQL's defaults, pinned. */
export const DURABILITY = ['fsync=on', 'synchronous_commit=on', 'full_page_writes=on'];

/**
 * Sized for one owner: 16 MB of buffers, 12 connections, no parallel or
 * replication workers, no I/O workers (PostgreSQL 18 starts three), one
 * autovacuum worker, no JIT. Six processes and about 18 MB PSS when idle.
 */
export const FOOTPRINT = [
  'shared_buffers=16MB',
  'max_connections=12',
  'huge_pages=off',
  'io_method=sync',
  'max_worker_processes=2',
  'max_logical_replication_workers=0',
  'max_wal_senders=0',
  'wal_level=minimal',
  'autovacuum_max_workers=1',
  'jit=off',
];

/** As PGlite ran: times in UTC. */
export const SESSION_DEFAULTS = ['TimeZone=UTC', 'log_timezone=UTC'];

/** Only the unix socket, inside the owner-only data folder: no TCP port, no password, no one else. */
export function listening(pgdata: string): string[] {
  return ['listen_addresses=', `unix_socket_directories=${pgdata}`, 'unix_socket_permissions=0700'];
}

/** The socket's path must fit a sockaddr_un (107 bytes). */
export const SOCKET_NAME = '.s.PGSQL.5432';
export const MAX_SOCKET_PATH = 107;

/**
 * initdb's options: the superuser `postgres`, UTF-8, and the same sorting
 * as PGlite (collation C; character classes of C.UTF-8 from PostgreSQL's
 * builtin provider, so no operating-system locale is needed).
 */
export const INITDB_OPTIONS = [
  '-U',
  'postgres',
  '-E',
  'UTF8',
  '--locale=C',
  '--locale-provider=builtin',
  '--builtin-locale=C.UTF-8',
  '--auth=trust',
  '--no-instructions',
];

/** The database the vault's schemas live in. */
export const DATABASE = 'vault';
export const SUPERUSER = 'postgres';
