import type { JournalImportSummary } from './journal-import.contracts.js';

// Apart from the contracts' schemas: the web imports this, and zod in the
// page's bundle would test for eval at load, which the CSP reports.

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The summary in one sentence, as the CLI prints it and the dialog shows it. */
export function importReport(summary: JournalImportSummary): string {
  const parts = [`Imported ${plural(summary.entries, 'entry', 'entries')} and ${plural(summary.photos, 'photo', 'photos')}`];
  if (summary.alreadyThere > 0) parts.push(`${plural(summary.alreadyThere, 'entry was', 'entries were')} already in the vault`);
  if (summary.skippedCount > 0) parts.push(`${plural(summary.skippedCount, 'item', 'items')} left out`);
  return `${parts.join('; ')}.`;
}
