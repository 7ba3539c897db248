import { afterAll, describe, expect, it } from '@jest/globals';
import { ApiClient } from '@vault/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenOf } from '../../persistence/test/strace.js';
import { type RunningVault, releaseParents, startVault } from './killed-vault.js';
import { OWNER } from './stack.js';

const KILL_ROUNDS = 20;
const WRITERS = 4;

type Kill = 'every process' | 'vault and postmaster';

/**
 * Issue 31, finding "A killed vault may not start again": the vault and its
 * PostgreSQL killed together (an OOM kill, a container killed, a power cut)
 * and started again at once on the same data. The dead postmaster is a
 * zombie until something reaps it: PID 1 here after about 1.5 s, never
 * under a PID 1 that does not reap (a container without an init), which
 * every other round stands in for (the vault's parent, made the subreaper
 * of what it leaves, never reaps it). PostgreSQL took the zombie for a live
 * server (`lock file "postmaster.pid" already exists`). Each round signs in,
 * writes from 4 clients and kills with writes in flight: the restart must
 * serve, with every write the vault acknowledged (201). Rounds alternate
 * killing every process of the server (a container killed) and the vault
 * and the postmaster only (the backends, orphaned, end on their own).
 */
describe('the embedded vault and its PostgreSQL killed together', () => {
  const work = mkdtempSync(join(tmpdir(), 'vault-killed-together-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it(`restarts at once, serves and keeps every acknowledged write, ${KILL_ROUNDS} rounds`, async () => {
    const dataDir = join(work, 'data');
    const acknowledged: string[] = [];
    const refused: string[] = [];
    const rounds: string[] = [];
    const underNonReaper = (round: number) => round % 2 === 1;
    let vault = await startVault(dataDir, { nonReapingParent: underNonReaper(0) });
    try {
      for (let round = 0; round < KILL_ROUNDS; round++) {
        const owner = new ApiClient(vault.url);
        expect((await owner.login(OWNER.username, OWNER.password)).status).toBe(200);
        let stopped = false;
        let written = 0;
        const writers = Array.from({ length: WRITERS }, async (_, writer) => {
          for (let n = 0; !stopped; n++) {
            const title = `r${round}-w${writer}-${n}`;
            const status = await owner.request('POST', '/api/targets', { title }).then(
              (r) => r.status,
              () => 0,
            );
            if (status !== 201) break;
            acknowledged.push(title);
            written++;
          }
        });
        while (written < 8) await new Promise((resolve) => setTimeout(resolve, 1));
        const kill: Kill = Math.floor(round / 2) % 2 === 0 ? 'every process' : 'vault and postmaster';
        const postmaster = killTogether(vault, join(dataDir, 'postgres'), kill);
        stopped = true;
        await Promise.all([...writers, vault.stop('SIGKILL')]);
        const reaper = underNonReaper(round) ? 'a parent that never reaps' : 'PID 1';

        const started = Date.now();
        const postmasterAtStart = stateOf(postmaster);
        for (let attempt = 1; ; attempt++) {
          try {
            vault = await startVault(dataDir, { nonReapingParent: underNonReaper(round + 1) });
            break;
          } catch (error) {
            // Recorded and tried again, 1 s apart; after 3 refusals the parents that never reap are ended (as a
            // container restarted would clear its zombies), so that the other rounds still run.
            refused.push(`round ${round} (${kill}, under ${reaper}; the old postmaster ${postmasterAtStart}): ${fatalOf(String(error))}`);
            if (attempt === 6) throw new Error(`round ${round}: the vault does not start again:\n  ${refused.join('\n  ')}`);
            if (attempt === 3) releaseParents();
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }
        const reader = new ApiClient(vault.url);
        expect((await reader.login(OWNER.username, OWNER.password)).status).toBe(200);
        const listed = await reader.request('GET', '/api/targets');
        expect(listed.status).toBe(200);
        const titles = new Set((listed.json as Array<{ title: string }>).map((t) => t.title));
        expect({ round, lost: acknowledged.filter((title) => !titles.has(title)) }).toEqual({ round, lost: [] });
        rounds.push(`${round}: ${kill}, under ${reaper}, old postmaster ${postmasterAtStart} at the restart, serving after ${Date.now() - started} ms`);
      }
    } finally {
      await vault.stop('SIGTERM');
      releaseParents();
    }
    process.stdout.write(
      `killed together, ${KILL_ROUNDS} rounds, ${acknowledged.length} acknowledged writes, all there:\n  ${rounds.join('\n  ')}\n` +
        `${refused.length} refused starts${refused.length ? `:\n  ${refused.join('\n  ')}` : ''}\n`,
    );
    expect(refused).toEqual([]);
  }, 900_000);
});

/**
 * SIGKILL to the vault and its postmaster in one go (and to every other
 * process of that server for `every process`), as an OOM kill, a killed
 * container or a power cut ends them. Returns the postmaster's pid.
 */
function killTogether(vault: RunningVault, pgdata: string, kill: Kill): number {
  const postmaster = Number(readFileSync(join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pids = [vault.pid, postmaster, ...(kill === 'every process' ? childrenOf(postmaster) : [])];
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return postmaster;
}

function stateOf(pid: number): 'alive' | 'a zombie' | 'gone' {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z' ? 'a zombie' : 'alive';
  } catch {
    return 'gone';
  }
}

/** PostgreSQL's own words of why it did not start, when the error carries them. */
function fatalOf(text: string): string {
  return (
    text
      .split('\n')
      .filter((line) => /FATAL|HINT/.test(line))
      .slice(-2)
      .join(' ') || text.split('\n')[0]
  );
}
