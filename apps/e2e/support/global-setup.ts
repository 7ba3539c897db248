// Builds what changed, starts a fresh vault per selected mode and returns the
// teardown that stops every process it spawned and removes their data.
import { mkdirSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { MODES, selectedModes } from './modes.ts';
import { SCREENSHOTS_DIR } from './paths.ts';
import { buildAll, startDistributed, startEmbedded, type RunningStack } from './stacks.ts';

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const modes = selectedModes();
  const buildSeconds = await buildAll();
  if (buildSeconds > 0) process.stdout.write(`Build checked in ${buildSeconds.toFixed(1)} s\n`);
  // The distributed stack's brokers start alongside the embedded vault; its launcher once that vault is up.
  const embedded = modes.includes('embedded') ? startEmbedded(MODES.embedded) : undefined;
  const distributed = modes.includes('distributed') ? startDistributed(MODES.distributed, embedded) : undefined;
  const outcomes = await Promise.allSettled([embedded, distributed].filter((p) => p !== undefined));
  const stacks = outcomes.filter((o): o is PromiseFulfilledResult<RunningStack> => o.status === 'fulfilled').map((o) => o.value);

  const teardown = async () => {
    const results = await Promise.allSettled(stacks.map((s) => s.stop()));
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failures.length > 0) throw new Error(failures.map((f) => (f.reason as Error).message).join('\n'));
    if (stacks.length > 0) process.stdout.write(`Stopped ${stacks.map((s) => s.mode.name).join(' and ')}; temporary data removed.\n`);
  };

  const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed.length > 0) {
    await teardown().catch((error: Error) => process.stderr.write(`${error.message}\n`));
    throw new Error(`Could not start the vault under test:\n${failed.map((f) => (f.reason as Error).message).join('\n\n')}`);
  }
  for (const s of stacks) process.stdout.write(`${s.mode.name} vault ready at ${s.baseURL} in ${s.startSeconds.toFixed(1)} s\n`);
  return teardown;
}
