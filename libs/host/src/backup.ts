import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { VaultExporter, exportToFile, readPassphraseFile } from '@vault/archive';
import { EventBus, EventsModule, TransportModule } from '@vault/transport';
import type { VaultConfig } from './vault-config.js';

/** Where the access log says a scheduled backup came from. */
export const BACKUP_ADDRESS = 'scheduled backup';

/**
 * A distributed vault's export without HTTP or a session: the gateway's own
 * exporter, as a short-lived NATS client of the running services (the
 * gateway image's `node dist/backup.js FILE --passphrase-file PATH`, what a
 * backup CronJob runs). Recorded in the access log like the owner's exports.
 */
export async function writeBackup(config: VaultConfig, file: string, passphraseFile?: string): Promise<void> {
  const passphrase = passphraseFile ? await readPassphraseFile(passphraseFile) : undefined;
  @Module({
    imports: [
      // An export pages through every record: a page may take longer than a screen's call.
      TransportModule.forClient({ kind: 'nats', url: config.NATS_URL, timeoutMs: Math.max(config.RPC_TIMEOUT_MS, 15_000) }, 'backup'),
      EventsModule.forRoot({ kind: 'jetstream', url: config.NATS_URL, consumerName: 'backup' }),
    ],
    providers: [VaultExporter],
  })
  class BackupModule {}
  const app = await NestFactory.createApplicationContext(BackupModule, { logger: ['error', 'warn'], abortOnError: false });
  try {
    await app.init();
    await exportToFile(app.get(VaultExporter), app.get(EventBus), file, { passphrase, address: BACKUP_ADDRESS });
  } finally {
    await app.close();
  }
}
