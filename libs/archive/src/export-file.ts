import { AccessAttempted } from '@vault/contracts';
import type { EventBus } from '@vault/transport';
import { createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { VaultExporter } from './vault-exporter.js';

/** A passphrase kept in a file (a mounted secret, an operator's file): its first line. */
export async function readPassphraseFile(path: string): Promise<string> {
  return (await readFile(path, 'utf8')).split(/\r?\n/)[0];
}

/**
 * An export to a file, for the command line and scheduled backups: written
 * beside and renamed when whole (the file is a complete archive or absent),
 * owner-only, and recorded in the access log as coming from `address`.
 */
export async function exportToFile(exporter: VaultExporter, events: EventBus, file: string, options: { passphrase?: string; address: string }): Promise<void> {
  const target = resolve(file);
  const partial = `${target}.partial`;
  try {
    await pipeline(exporter.stream({ passphrase: options.passphrase }), createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    await rename(partial, target);
    events.publish(AccessAttempted, { ipAddress: options.address, action: 'export', success: true });
  } catch (error) {
    await rm(partial, { force: true });
    events.publish(AccessAttempted, { ipAddress: options.address, action: 'export', success: false });
    throw error;
  }
}
