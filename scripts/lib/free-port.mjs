import { createServer } from 'node:net';

/**
 * Ports for servers the tests start, a block of its own for each jest worker
 * (JEST_WORKER_ID), below the kernel's ephemeral range (32768 and up on
 * Linux): a port one test picked and let go before its server took it (a
 * vault restarted after a kill) is then never handed to another test's
 * server meanwhile, as the kernel's own pick can be.
 */
const BLOCK_START = 20_000;
const BLOCK_SIZE = 1_000;
const worker = Number(process.env.JEST_WORKER_ID);
let next = 0;

/**
 * A TCP port free on 127.0.0.1 now, for a process or container started next
 * on it. In a jest worker, the next free one of its block; elsewhere the
 * kernel's pick for a listener, closed at once (another may take it
 * meanwhile: start it soon).
 * @returns {Promise<number>}
 */
export async function freePort() {
  if (!Number.isInteger(worker) || worker < 1) return listenable(0);
  for (let tried = 0; tried < BLOCK_SIZE; tried++) {
    const port = BLOCK_START + ((worker - 1) % 12) * BLOCK_SIZE + (next++ % BLOCK_SIZE);
    const free = await listenable(port).catch(() => undefined);
    if (free !== undefined) return free;
  }
  throw new Error(`no free port in jest worker ${worker}'s block`);
}

/** The port a listener gets on 127.0.0.1 (0: the kernel's pick), closed at once. */
function listenable(port) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(bound));
    });
  });
}
