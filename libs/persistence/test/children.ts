import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const library = fileURLToPath(new URL('..', import.meta.url));
export const CHILD = join(library, 'test/fixtures/embedded-child.mjs');

/**
 * Child processes run the built library (`npm test` builds first). Only its
 * presence is checked: Nx restores cached outputs with their old times, so
 * comparing times with the sources would refuse a build that is current.
 */
export function assertBuilt(): void {
  if (!existsSync(join(library, 'dist/index.js'))) throw new Error('libs/persistence/dist is missing: run `npx tsc -b libs/persistence` (or `npm run build`).');
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
    if (child.process.exitCode !== null || Date.now() > deadline)
      throw new Error(`no ${pattern} from the child (exit ${child.process.exitCode}): ${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
