import { AccessAttempted, type JournalImportSummary } from '@vault/contracts';
import type { EventBus } from '@vault/transport';
import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ArchiveRefusal } from './archive-refusal.js';
import { JournalImporter, importDetail } from './journal-importer.js';

/**
 * A journal import from a file on this machine, as the command lines run it
 * (the embedded CLI's `import-journal`, the gateway image's
 * `dist/import-journal.js`): recorded in the access log from `address` with
 * its size, refused or not. A refusal is an Error with the owner's words.
 */
export async function importJournalFromFile(importer: JournalImporter, events: EventBus, file: string, address: string): Promise<JournalImportSummary> {
  const path = resolve(file);
  const bytes = statSync(path).size;
  const record = (success: boolean, detail: string) => events.publish(AccessAttempted, { ipAddress: address, action: 'import_journal', success, detail });
  try {
    const summary = await importer.import({ body: createReadStream(path) });
    record(true, importDetail(bytes, summary));
    return summary;
  } catch (error) {
    record(false, importDetail(bytes));
    throw error instanceof ArchiveRefusal ? new Error(error.message) : error;
  }
}
