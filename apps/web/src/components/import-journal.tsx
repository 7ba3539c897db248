import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { importReport, type JournalImportSummary } from '@vault/contracts';
import { serverReason } from '../lib/api';
import { refreshJournal } from '../lib/journal';
import { PHOTOS_KEY } from '../lib/photos';
import { toast } from '../lib/toast';
import { megabytes, uploadJournalImport } from '../lib/vault-archive';
import { FileField } from './form-fields';

/** Where an import stands: the upload's share sent, then the server storing what it read. */
type Stage = { kind: 'uploading'; fraction: number } | { kind: 'storing' };

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
  const [stage, setStage] = useState<Stage | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [summary, setSummary] = useState<JournalImportSummary | undefined>();
  const running = stage !== undefined;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (running || !file) return;
    setError(undefined);
    setSummary(undefined);
    setStage({ kind: 'uploading', fraction: 0 });
    try {
      const done = await uploadJournalImport(file, (fraction) => setStage(fraction < 1 ? { kind: 'uploading', fraction } : { kind: 'storing' }));
      setSummary(done);
      toast({ title: 'Journal Imported', description: importReport(done) });
      await Promise.all([refreshJournal(queryClient), queryClient.invalidateQueries({ queryKey: PHOTOS_KEY })]);
    } catch (failure) {
      setError(serverReason(failure) ?? (failure as Error).message);
    } finally {
      setStage(undefined);
    }
  }

  return (
    <details aria-labelledby={headingId} className="rounded-lg border-2 border-edge bg-vault-deep p-4">
      <summary id={headingId} className="comic-heading cursor-pointer text-base text-hero-cyan">
        IMPORT JOURNAL
      </summary>
      <p className="mt-2 text-sm text-muted">Adds entries from Day One (JSON export, .zip) or a zip of Markdown notes. Nothing is replaced.</p>
      <form className="mt-3 space-y-2" onSubmit={onSubmit}>
        <FileField label="Export file (.zip)" accept=".zip,application/zip" disabled={running} onChange={setFile} />
        {error ? (
          <p role="alert" className="text-sm font-semibold text-hero-red">
            {error}
          </p>
        ) : null}
        {stage?.kind === 'uploading' ? (
          <progress className="w-full" max={1} value={stage.fraction} aria-label="Import upload">
            {Math.round(stage.fraction * 100)}%
          </progress>
        ) : null}
        {stage ? (
          <p role="status" className="text-sm text-hero-yellow">
            {stage.kind === 'uploading'
              ? `UPLOADING... ${megabytes((file?.size ?? 0) * stage.fraction)} of ${megabytes(file?.size ?? 0)}`
              : 'STORING ENTRIES AND PHOTOS...'}
          </p>
        ) : null}
        {summary ? <ImportSummary summary={summary} /> : null}
        <button type="submit" className="btn btn-yellow w-full text-sm" disabled={running || !file}>
          {running ? 'IMPORTING...' : 'IMPORT'}
        </button>
      </form>
    </details>
  );
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
