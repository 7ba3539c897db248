// The real embedded process, as `npm start` launches it (the launcher's
// entry and node flags), started and killed as an owner's machine would: the self-destruct kill trials
// (self-destruct-crash.int-spec.ts) and the vault killed with its PostgreSQL
// (killed-together.int-spec.ts), each in a file of its own so that Jest
// workers run them side by side.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../scripts/lib/free-port.mjs';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../../scripts/lib/node-flags.mjs';
import { embeddedMode } from '../../../scripts/lib/vault-launcher.mjs';
import { OWNER_ENV } from './stack.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export interface RunningVault {
  url: string;
  /** The vault's own process. */
  pid: number;
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

/**
 * The parent of a vault that never reaps what the vault leaves: perl makes
 * itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER, so a process the
 * vault orphans is reparented to it, not to PID 1), forks the vault, waits
 * for it alone, then sleeps until the test ends it. It prints the vault's
 * pid, then `exit` once the vault has ended.
 */
const NON_REAPING_PARENT = `
  $| = 1;
  syscall(shift @ARGV, 36, 1, 0, 0, 0) == 0 or die "prctl: $!";
  my $pid = fork() // die "fork: $!";
  if ($pid == 0) { open STDOUT, '>', '/dev/null'; exec @ARGV or die "exec: $!"; }
  print "$pid\\n";
  waitpid($pid, 0);
  print "exit\\n";
  sleep;
`;
const SYS_PRCTL: Partial<Record<string, number>> = { x64: 157, arm64: 167 };
const parents: ChildProcess[] = [];

/** Ends the non-reaping parents: what they held is reparented to PID 1, which reaps it. */
export function releaseParents(): void {
  for (const parent of parents.splice(0)) parent.kill('SIGKILL');
}

/**
 * The real embedded process, as `npm start` runs it (the bundle, ADR 0010,
 * with the launch lines' node flags); with `nonReapingParent`, under
 * NON_REAPING_PARENT.
 */
export async function startVault(dataDir: string, options: { nonReapingParent?: boolean } = {}): Promise<RunningVault> {
  const port = await freePort();
  const [app] = embeddedMode({ port, dataDir }).apps;
  const vault = [process.execPath, ...SERVER_NODE_FLAGS, app.entry];
  let command = vault;
  if (options.nonReapingParent) {
    const prctl = SYS_PRCTL[process.arch];
    if (prctl === undefined) throw new Error(`prctl's system call number on ${process.arch} is not known here`);
    command = ['perl', '-e', NON_REAPING_PARENT, String(prctl), ...vault];
  }
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    stdio: ['ignore', options.nonReapingParent ? 'pipe' : 'ignore', 'pipe'],
    env: {
      ...SERVER_ENV,
      ...process.env,
      ...app.env,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      VAULT_WEB_DIST: join(dataDir, 'no-web-app'),
      ...OWNER_ENV,
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  let ended = false;
  let output = '';
  const exited = new Promise<void>((resolve) => {
    const end = () => {
      ended = true;
      resolve();
    };
    child.on('exit', end);
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      if (/^exit$/m.test(output)) end();
    });
  });
  if (options.nonReapingParent) parents.push(child);
  const deadline = Date.now() + 60_000;
  while (options.nonReapingParent && !/^\d+$/m.test(output)) {
    if (ended || Date.now() > deadline) throw new Error(`the non-reaping parent did not start the vault: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const pid = options.nonReapingParent ? Number(/^(\d+)$/m.exec(output)![1]) : child.pid!;
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (ended) throw new Error(`the vault exited: ${stderr}`);
    try {
      await fetch(`${url}/health/live`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`the vault did not answer within 60 s: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return {
    url,
    pid,
    stop: async (signal) => {
      if (!ended) {
        try {
          process.kill(pid, signal);
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
}
