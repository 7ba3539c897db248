import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccessAttempted, type AccessAction } from '@vault/contracts';
import {
  ArchiveRefusal,
  JournalImporter,
  VaultExporter,
  VaultImporter,
  exportToFile,
  importJournalFromFile,
  importReportLines,
  readPassphraseFile,
} from '@vault/archive';
import { createHttpAdapter } from '@vault/gateway';
import { loadProcessConfig } from '@vault/host';
import { PersistenceModule, type ConnectionOptions } from '@vault/persistence';
import { ownerCommand } from '@vault/platform';
import { EventBus, EventsModule, InProcessBroker, TransportModule, microserviceOptions } from '@vault/transport';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { domainModules, serviceMigrations } from './domains.js';

/** Where the access log says a command-line export, restore or journal import came from. */
const CLI_ADDRESS = 'local command line';

/**
 * `export FILE` and `import FILE` on the embedded vault's data folder: every
 * service's module over the in-process transport, as the vault runs them,
 * without the HTTP server. The same exporter and importer as the API.
 */
async function withVault<T>(work: (app: INestApplication) => Promise<T>): Promise<T> {
  const config = loadProcessConfig('cli');
  if (config.VAULT_MODE !== 'embedded')
    throw new Error(
      "export and import work on the embedded vault's data folder (VAULT_MODE=embedded); a distributed vault exports through its API (docs/deploy.md)",
    );
  const database: ConnectionOptions = {
    kind: 'embedded',
    dataDir: resolve(config.VAULT_DATA_DIR),
    pgliteImport: serviceMigrations(),
    log: (message) => process.stderr.write(`${message}\n`),
  };
  const transport = { kind: 'in-process' as const, broker: new InProcessBroker(), timeoutMs: 60_000 };
  @Module({
    imports: [
      PersistenceModule.forRoot(database),
      TransportModule.forClient(transport, 'cli'),
      EventsModule.forRoot({ kind: 'in-process' }),
      ...domainModules(config),
    ],
    providers: [VaultExporter, VaultImporter, JournalImporter],
  })
  class ArchiveCommandModule {}
  const app = await NestFactory.create(ArchiveCommandModule, createHttpAdapter({ trustedProxies: [] }), { logger: ['error', 'warn'], abortOnError: false });
  try {
    app.connectMicroservice(microserviceOptions(transport, 'vault'));
    await app.init();
    await app.startAllMicroservices();
    return await work(app);
  } finally {
    await app.close();
  }
}

function record(app: INestApplication, action: AccessAction, success: boolean) {
  app.get(EventBus).publish(AccessAttempted, { ipAddress: CLI_ADDRESS, action, success });
}

/** The passphrase from `--passphrase-file PATH` (its first line), if given. */
async function passphraseOption(args: string[]): Promise<string | undefined> {
  const at = args.indexOf('--passphrase-file');
  if (at === -1) return undefined;
  const path = args[at + 1];
  if (!path) throw new Error('--passphrase-file needs a path');
  return readPassphraseFile(path);
}

export async function exportCommand(args: string[]) {
  const file = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--passphrase-file');
  if (!file) throw new Error(`Usage: ${ownerCommand()} export FILE [--passphrase-file PATH]`);
  const passphrase = await passphraseOption(args);
  await withVault((app) => exportToFile(app.get(VaultExporter), app.get(EventBus), file, { passphrase, address: CLI_ADDRESS }));
  process.stdout.write(`Exported the vault to ${file}${passphrase ? ' (encrypted with age)' : ''}.\n`);
}

export async function importCommand(args: string[]) {
  const file = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--passphrase-file');
  if (!file) throw new Error(`Usage: ${ownerCommand()} import FILE [--passphrase-file PATH]`);
  const passphrase = await passphraseOption(args);
  const summary = await withVault(async (app) => {
    try {
      const result = await app.get(VaultImporter).restore({ body: createReadStream(resolve(file)), passphrase });
      record(app, 'import', true);
      return result;
    } catch (error) {
      record(app, 'import', false);
      if (error instanceof ArchiveRefusal) throw new Error(error.message);
      throw error;
    }
  });
  const counts = Object.entries(summary.restored)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
  process.stdout.write(`Restored ${counts}.\n`);
}

export async function importJournalCommand(args: string[]) {
  const file = args.find((arg) => !arg.startsWith('--'));
  if (!file) throw new Error(`Usage: ${ownerCommand()} import-journal FILE`);
  const summary = await withVault((app) => importJournalFromFile(app.get(JournalImporter), app.get(EventBus), file, CLI_ADDRESS));
  process.stdout.write(importReportLines(summary));
}
