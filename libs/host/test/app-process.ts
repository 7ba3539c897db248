import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './private-nats.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** A log line of a process: pino's JSON. */
export type LogLine = Record<string, unknown> & { msg?: string; traceId?: string; requestId?: string };

export interface AppProcess {
  url: string;
  /** Every JSON line the process has written to its standard output so far. */
  lines: LogLine[];
  stop(): Promise<void>;
  /** Sends a signal, as the kubelet or a process manager does; `exited` resolves once the process has ended. */
  signal(name: NodeJS.Signals): void;
  exited: Promise<void>;
}

/**
 * One built app (`apps/<app>/dist/main.js`) as its own process, as the
 * operator runs it, with its log lines kept for the test. Resolves once
 * `readyPath` answers 200 on its port.
 */
export async function startApp(entry: string, env: Record<string, string>, readyPath = '/health/ready'): Promise<AppProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HOST: '127.0.0.1', ...env, PORT: String(port) },
  });
  const lines: LogLine[] = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // Not a log line (a first-run banner, say).
      }
    }
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}: ${stderr}`);
    const status = await fetch(url + readyPath).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${entry} was not ready within 60 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, lines, stop, signal: (name) => child.kill(name), exited };
}

/** The first line `matches` accepts, waiting for it a little: a process writes some lines after it has answered. */
export async function lineOf(app: AppProcess, matches: (line: LogLine) => boolean, withinMs = 5000): Promise<LogLine | undefined> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const line = app.lines.find(matches);
    if (line || Date.now() > deadline) return line;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
