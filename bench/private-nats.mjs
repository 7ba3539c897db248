// A NATS server of the bench's own (JetStream on, on a free loopback port,
// stored in a temporary folder), so that the distributed stack the bench
// starts never shares subjects and queue groups with another vault on the
// machine's broker: a stack's gateway would be answered by the other's
// services.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const answers = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
  });

/** Starts it; `stop()` ends it and removes its folder. */
export async function startPrivateNats() {
  if (spawnSync('sh', ['-c', 'command -v nats-server']).status !== 0) {
    throw new Error('the bench needs nats-server (Debian package nats-server) for a broker of its own');
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vault-bench-nats-'));
  const server = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`nats-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: async () => {
      server.kill('SIGTERM');
      if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
