import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ArchiveRefusal, JournalImporter, importDetail } from '@vault/archive';
import { AccessAttempted, type JournalImportSummary } from '@vault/contracts';
import { EventBus, EventsModule, TransportModule } from '@vault/transport';
import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { VaultConfig } from './vault-config.js';

/** Where the access log says an operator's journal import came from. */
export const IMPORT_COMMAND_ADDRESS = 'gateway command line';

/**
 * A distributed vault's journal import without HTTP or a session (the
 * gateway image's `node dist/import-journal.js FILE`): the gateway's own
 * importer, as a short-lived NATS client of the running services. Recorded
 * in the access log like the owner's imports.
 */
export async function importJournalFile(config: VaultConfig, file: string): Promise<JournalImportSummary> {
  @Module({
    imports: [
      // A page of entries is sealed and written in one call: longer than a screen's.
      TransportModule.forClient({ kind: 'nats', url: config.NATS_URL, timeoutMs: Math.max(config.RPC_TIMEOUT_MS, 30_000) }, 'import-journal'),
      EventsModule.forRoot({ kind: 'jetstream', url: config.NATS_URL, consumerName: 'import-journal' }),
    ],
    providers: [JournalImporter],
  })
  class ImportJournalModule {}
  const app = await NestFactory.createApplicationContext(ImportJournalModule, { logger: ['error', 'warn'], abortOnError: false });
  try {
    await app.init();
    const record = (success: boolean, detail: string) =>
      app.get(EventBus).publish(AccessAttempted, { ipAddress: IMPORT_COMMAND_ADDRESS, action: 'import_journal', success, detail });
    const bytes = statSync(resolve(file)).size;
    try {
      const summary = await app.get(JournalImporter).import({ body: createReadStream(resolve(file)) });
      record(true, importDetail(bytes, summary));
      return summary;
    } catch (error) {
      record(false, importDetail(bytes));
      if (error instanceof ArchiveRefusal) throw new Error(error.message);
      throw error;
    }
  } finally {
    await app.close();
  }
}
