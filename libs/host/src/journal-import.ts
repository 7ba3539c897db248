import { JournalImporter, importJournalFromFile } from '@vault/archive';
import type { JournalImportSummary } from '@vault/contracts';
import { EventBus } from '@vault/transport';
import { withServicesOverNats } from './nats-command.js';
import type { VaultConfig } from './vault-config.js';

/** Where the access log says an operator's journal import came from. */
export const IMPORT_COMMAND_ADDRESS = 'gateway command line';

/**
 * A distributed vault's journal import (the gateway image's `node
 * dist/import-journal.js FILE`): the gateway's own importer over NATS,
 * recorded in the access log like the owner's imports. A page of entries is
 * sealed and written in one call: up to 30 s.
 */
export function importJournalFile(config: VaultConfig, file: string): Promise<JournalImportSummary> {
  return withServicesOverNats(config, { name: 'import-journal', timeoutMs: 30_000, providers: [JournalImporter] }, (app) =>
    importJournalFromFile(app.get(JournalImporter), app.get(EventBus), file, IMPORT_COMMAND_ADDRESS),
  );
}
