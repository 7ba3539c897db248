import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A nats-server of one test's own (its port, its JetStream store), so the
 * test can kill the broker without touching the NATS its worker's spec files share.
 */
export class PrivateNats {
  private child?: ChildProcess;
  readonly storeDir = mkdtempSync(join(tmpdir(), 'vault-private-nats-'));

  constructor(readonly port: number) {}

  get url() {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts (or restarts, on the same port and store) and resolves once it accepts connections. */
  async start(): Promise<void> {
    const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: 'ignore' });
    this.child = child;
    const exited = new Promise<never>((_, reject) => {
      child.once('exit', (code) => reject(new Error(`nats-server exited (${code}) on port ${this.port}`)));
      child.once('error', (error) => reject(new Error(`nats-server could not start (${error.message}): this test needs it on the PATH`)));
    });
    await Promise.race([waitForPort(this.port, 10_000), exited]);
  }

  /** A crash, not a shutdown: no goodbye to the clients. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
    this.child = undefined;
  }

  /** A stalled broker (SIGSTOP): its connections stay open and nothing answers on them until resume(). */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  async remove(): Promise<void> {
    await this.kill();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

async function waitForPort(port: number, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing accepts connections on port ${port} after ${withinMs} ms`);
}

/** A port nothing listens on right now, for a server this test starts (scripts/lib/free-port.mjs). */
export { freePort } from '../../../scripts/lib/free-port.mjs';
