import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 now: the kernel's pick for a listener, closed at once. For a
 * process or container started next on it (another may take it meanwhile: start it soon).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}
