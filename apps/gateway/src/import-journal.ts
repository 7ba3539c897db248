// `node dist/import-journal.js FILE`: another app's journal (a Day One JSON
// export, a zip of Markdown or text notes, a Vault export's journal) added to
// a distributed vault, from the running services over NATS, as IMPORT
// JOURNAL does (README, "Import a journal").
import { importReportLines } from '@vault/archive';
import { importJournalFile, loadProcessConfig } from '@vault/host';
import { ConfigError } from '@vault/platform';

const file = process.argv[2];
if (!file || file.startsWith('-')) {
  process.stderr.write('Usage: node dist/import-journal.js FILE\n');
  process.exit(2);
}
new Promise<string>((resolve) => resolve(importJournalFile(loadProcessConfig('gateway', 'import-journal'), file).then(importReportLines))).then(
  (report) => {
    process.stdout.write(report);
    process.exit(0);
  },
  (error: Error) => {
    process.stderr.write(error instanceof ConfigError ? `${error.message}\n` : `Import failed: ${error.message}\n`);
    process.exit(1);
  },
);
