import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { importReport, type JournalImportProgress, type JournalImportSummary } from '@vault/contracts';
import { serverReason } from '../lib/api';
import { refreshJournal } from '../lib/journal';
import { PHOTOS_KEY } from '../lib/photos';
import { toast } from '../lib/toast';
import { megabytes, readImportProgress, startImportProgress, uploadJournalImport } from '../lib/vault-archive';
import { FileField } from './form-fields';

/** A running import: the share of the upload sent, and the server's progress record (when it could keep one). */
type Running = { fraction: number; progressId: string | undefined };

/** How often the dialog reads the server's progress while it stores. */
const PROGRESS_EVERY_MS = 400;

/**
 * IMPORT JOURNAL, in the settings panel: another app's journal (Day One's
 * JSON export, a zip of Markdown or text notes, a Vault export's journal)
 * added to this vault. The upload shows its progress, then the server reads
 * and stores it whole; the summary names what was added, what was already
 * there (imported before), and each thing left out with its reason.
 */
export function ImportJournalSection() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | undefined>();
  const [running, setRunning] = useState<Running | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [summary, setSummary] = useState<JournalImportSummary | undefined>();
  const busy = running !== undefined;
  const server = useServerProgress(running?.progressId);
  // The server's word once it has the file; before that, the upload's own progress.
  const serverStage = server && server.stage !== 'uploading' ? server : undefined;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy || !file) return;
    setError(undefined);
    setSummary(undefined);
    setRunning({ fraction: 0, progressId: undefined });
    try {
      const progressId = await startImportProgress();
      setRunning({ fraction: 0, progressId });
      const done = await uploadJournalImport(file, progressId, (fraction) => setRunning({ fraction, progressId }));
      // The import is over once its answer is here: the server's progress is no longer read, however long the refresh below takes.
      setRunning(undefined);
      setSummary(done);
      toast({ title: 'Journal Imported', description: importReport(done) });
      await Promise.all([refreshJournal(queryClient), queryClient.invalidateQueries({ queryKey: PHOTOS_KEY })]);
    } catch (failure) {
      setError(serverReason(failure) ?? (failure as Error).message);
    } finally {
      setRunning(undefined);
    }
  }

  return (
    <details aria-labelledby={headingId} className="rounded-lg border-2 border-edge bg-vault-deep p-4">
      <summary id={headingId} className="comic-heading cursor-pointer text-base text-hero-cyan">
        IMPORT JOURNAL
      </summary>
      <p className="mt-2 text-sm text-muted">Adds entries from Day One (JSON export, .zip) or a zip of Markdown notes. Nothing is replaced.</p>
      <form className="mt-3 space-y-2" onSubmit={onSubmit}>
        <FileField label="Export file (.zip)" accept=".zip,application/zip" disabled={busy} onChange={setFile} />
        {error ? (
          <p role="alert" className="text-sm font-semibold text-hero-red">
            {error}
          </p>
        ) : null}
        {running && !serverStage && running.fraction < 1 ? (
          <>
            <progress className="w-full" max={1} value={running.fraction} aria-label="Import upload">
              {Math.round(running.fraction * 100)}%
            </progress>
            <p role="status" className="text-sm text-hero-yellow">
              {`UPLOADING... ${megabytes((file?.size ?? 0) * running.fraction)} of ${megabytes(file?.size ?? 0)}`}
            </p>
          </>
        ) : null}
        {running && (serverStage || running.fraction >= 1) ? <StoringProgress progress={serverStage} /> : null}
        {summary ? <ImportSummary summary={summary} /> : null}
        <button type="submit" className="btn btn-yellow w-full text-sm" disabled={busy || !file}>
          {busy ? 'IMPORTING...' : 'IMPORT'}
        </button>
      </form>
    </details>
  );
}

/** The server's progress record, read every 400 ms while there is one to read. */
function useServerProgress(progressId: string | undefined): JournalImportProgress | undefined {
  const [progress, setProgress] = useState<JournalImportProgress | undefined>();
  useEffect(() => {
    setProgress(undefined);
    if (!progressId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      // A missed read (the connection, a replica restarting) only leaves the last figures up.
      const now = await readImportProgress(progressId).catch(() => undefined);
      if (!stopped && now) setProgress(now);
      if (!stopped) timer = setTimeout(read, PROGRESS_EVERY_MS);
    };
    timer = setTimeout(read, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [progressId]);
  return progress;
}

/** Once the file has arrived: the server's stage, and while it stores, entries then photos counted against their totals. */
function StoringProgress({ progress }: { progress: JournalImportProgress | undefined }) {
  const storing = progress && (progress.stage === 'storing' || progress.stage === 'done') ? progress : undefined;
  const done = storing ? storing.entries.stored + storing.photos.stored : 0;
  const total = storing ? storing.entries.total + storing.photos.total : 0;
  return (
    <>
      {total > 0 ? <progress className="w-full" max={total} value={done} aria-label="Import storing" /> : null}
      <p role="status" className="text-sm text-hero-yellow">
        {storing ? storingLine(storing) : progress?.stage === 'reading' ? 'READING THE EXPORT...' : 'STORING ENTRIES AND PHOTOS...'}
      </p>
    </>
  );
}

/** `STORING... 400 of 1000 entries, 0 of 50 photos`: photos once their total is known. */
function storingLine({ entries, photos }: JournalImportProgress): string {
  const parts = [`${entries.stored} of ${entries.total} entries`];
  if (photos.total > 0) parts.push(`${photos.stored} of ${photos.total} photos`);
  return `STORING... ${parts.join(', ')}`;
}

function ImportSummary({ summary }: { summary: JournalImportSummary }) {
  const more = summary.skippedCount - summary.skipped.length;
  return (
    <div role="status" className="space-y-1 text-sm">
      <p className="font-semibold text-hero-yellow">{importReport(summary)}</p>
      {summary.skippedCount > 0 ? (
        <ul aria-label="Left out" className="max-h-40 list-disc space-y-1 overflow-y-auto break-words pl-5 text-muted">
          {summary.skipped.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is the server's, shown once, never reordered.
            <li key={index}>
              {item.source}: {item.reason}
            </li>
          ))}
          {more > 0 ? <li>and {more} more</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
