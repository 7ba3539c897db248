import { DEFAULT_DATA_DIR, clusterPaths, openEmbeddedDatabase, type EmbeddedDatabase } from '@vault/persistence/embedded-postgres';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The embedded PostgreSQL server is started first, before the rest of the
 * vault is loaded: the server (a process of its own) boots while Node loads
 * and compiles the vault's modules, instead of after them. The vault joins
 * this server when it opens its data folder (one server per folder per
 * process) and then ends this early hold (startEmbedded's `startedEarly`).
 *
 * Nothing is decided here: the configuration is validated by the vault as
 * before. A start this module does not attempt (another mode, a PGlite
 * folder to import, which needs every service's migrations) or that fails
 * is left to the vault, which reports its own error.
 */
const messages: string[] = [];
let leaveTheThread: () => void = () => undefined;
/** Once the server's process (or a first start's initdb) is spawned, or the early start is over. */
const underway = new Promise<void>((resolve) => (leaveTheThread = resolve));
const hold: Promise<EmbeddedDatabase | undefined> = startEarly();
void hold.finally(leaveTheThread);

function startEarly(): Promise<EmbeddedDatabase | undefined> {
  const mode = process.env.VAULT_MODE?.trim() || 'embedded';
  const dataDir = resolve(process.env.VAULT_DATA_DIR || DEFAULT_DATA_DIR);
  if (mode !== 'embedded' || existsSync(clusterPaths(dataDir).pglite)) return Promise.resolve(undefined);
  return openEmbeddedDatabase({ dataDir, log: (message) => messages.push(message), underway: leaveTheThread }).catch(() => undefined);
}

export const earlyDatabase = {
  /**
   * Resolves once the start no longer needs the main thread: the vault's
   * modules are loaded after it. Loaded before, their evaluation (about
   * 250 ms) ran between the early start's first step and its spawn, which
   * waited for it, and the server then booted after the code instead of
   * beside it.
   */
  underway,
  /** What the server's start had to say (a cluster made on a first start), for the vault's log. */
  messages,
  release: async () => {
    await (await hold)?.release();
  },
};
