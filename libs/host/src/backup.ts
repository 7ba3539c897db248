import { VaultExporter, exportToFile, readPassphraseFile } from '@vault/archive';
import { EventBus } from '@vault/transport';
import { withServicesOverNats } from './nats-command.js';
import type { VaultConfig } from './vault-config.js';

/** Where the access log says a scheduled backup came from. */
export const BACKUP_ADDRESS = 'scheduled backup';

/**
 * A distributed vault's export without HTTP or a session: the gateway's own
 * exporter over NATS (the gateway image's `node dist/backup.js FILE
 * --passphrase-file PATH`, what a backup CronJob runs). Recorded in the
 * access log like the owner's exports.
 */
export async function writeBackup(config: VaultConfig, file: string, passphraseFile?: string): Promise<void> {
  const passphrase = passphraseFile ? await readPassphraseFile(passphraseFile) : undefined;
  // An export pages through every record: a page may take longer than a screen's call.
  await withServicesOverNats(config, { name: 'backup', timeoutMs: 15_000, providers: [VaultExporter] }, (app) =>
    exportToFile(app.get(VaultExporter), app.get(EventBus), file, { passphrase, address: BACKUP_ADDRESS }),
  );
}
