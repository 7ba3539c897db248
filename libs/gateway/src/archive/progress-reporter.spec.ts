import { describe, expect, it } from '@jest/globals';
import type { JournalImportProgress } from '@vault/contracts';
import type { ImportProgressRecord, ImportProgressStore } from './import-progress.store.js';
import { ProgressReporter } from './progress-reporter.js';

const storing = (entries: number): JournalImportProgress => ({ stage: 'storing', entries: { stored: entries, total: 1000 }, photos: { stored: 0, total: 0 } });

/** A store that keeps what it is given, one write at a time, each taking `writeMs`. */
function recordingStore(options: { failing?: boolean; writeMs?: number } = {}) {
  const writes: ImportProgressRecord[] = [];
  const store = {
    async update(_id: string, record: ImportProgressRecord) {
      await new Promise((resolve) => setTimeout(resolve, options.writeMs ?? 0));
      if (options.failing) throw new Error('Connection is closed.');
      writes.push(record);
    },
  } as unknown as ImportProgressStore;
  return { store, writes };
}

describe('an import’s progress reporter', () => {
  it('writes the first report at once, then at most every 250 ms, in order, and the last one when it finishes', async () => {
    const { store, writes } = recordingStore({ writeMs: 5 });
    const reporter = new ProgressReporter(store, 'id', 1234);
    for (let entries = 0; entries <= 500; entries += 100) reporter.report(storing(entries));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes.map((write) => write.progress.entries.stored)).toEqual([0]);
    // A report held back by the pace is written when its turn comes, without another report.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(writes.map((write) => write.progress.entries.stored)).toEqual([0, 500]);
    reporter.report(storing(1000));
    reporter.report({ stage: 'done', entries: { stored: 1000, total: 1000 }, photos: { stored: 0, total: 0 } });
    await reporter.finished();
    expect(writes.map((write) => [write.progress.stage, write.progress.entries.stored])).toEqual([
      ['storing', 0],
      ['storing', 500],
      ['done', 1000],
    ]);
    expect(writes.every((write) => write.startedAt === 1234)).toBe(true);
  });

  it('marks the counts it reached as failed', async () => {
    const { store, writes } = recordingStore();
    const reporter = new ProgressReporter(store, 'id', 0);
    reporter.report(storing(300));
    await reporter.failed();
    expect(writes.at(-1)?.progress).toEqual({ ...storing(300), stage: 'failed' });
  });

  it('costs the import nothing when the store fails: no report throws', async () => {
    const { store, writes } = recordingStore({ failing: true });
    const reporter = new ProgressReporter(store, 'id', 0);
    reporter.report(storing(1));
    await expect(reporter.finished()).resolves.toBeUndefined();
    await expect(reporter.failed()).resolves.toBeUndefined();
    expect(writes).toEqual([]);
  });
});
