import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const library = fileURLToPath(new URL('..', import.meta.url));
export const CHILD = join(library, 'test/fixtures/embedded-child.mjs');

/** Child processes run the built library: refuse a dist older than its sources rather than test stale code. */
export function assertBuilt(): void {
  const newest = (dir: string): number =>
    Math.max(0, ...readdirSync(dir).map((name) => (statSync(join(dir, name)).isDirectory() ? newest(join(dir, name)) : statSync(join(dir, name)).mtimeMs)));
  let built = 0;
  try {
    // tsc -b rewrites only the outputs that changed, and its build info every time it builds.
    built = statSync(join(library, 'dist/index.js')) && statSync(join(library, 'tsconfig.tsbuildinfo')).mtimeMs;
  } catch {
    // not built
  }
  if (built < newest(join(library, 'src'))) throw new Error('libs/persistence/dist is missing or older than its sources: run `npx tsc -b libs/persistence` (or `npx tsc -b apps/vault`).');
}

export interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `node embedded-child.mjs ...args`, optionally behind a command prefix (setpriv ...). */
export function startChild(args: string[], prefix: string[] = []): Child {
  const [command, ...rest] = [...prefix, process.execPath, CHILD, ...args];
  const child = spawn(command, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, output: () => output, exited };
}

export async function waitForOutput(child: Child, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(child.output());
    if (match) return match;
    if (child.process.exitCode !== null || Date.now() > deadline) throw new Error(`no ${pattern} from the child (exit ${child.process.exitCode}): ${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
