import { resetDestroyedVault, resetSecondFactor, secondFactorResetReport, setOwnerPassword } from '@vault/auth';
import { databaseUrlFor, loadProcessConfig, type VaultConfig } from '@vault/host';
import { openConnection } from '@vault/persistence';
import { ownerCommand } from '@vault/platform';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { exportCommand, importCommand, importJournalCommand } from './archive-commands.js';
import { serviceMigrations } from './domains.js';

const USAGE = `Usage: ${ownerCommand()} <command>

Commands:
  set-password   Store a new owner password (read from standard input).
  start-new-vault --erase-confirmed
                 After a self-destruct, start a new, empty vault. Without the
                 flag nothing happens. Set the owner password again afterwards.
  reset-second-factor [--yes]
                 Remove every second factor (passkeys, authenticator apps,
                 recovery codes): the owner signs in with the password alone
                 again. Asks for confirmation unless --yes is given.
  export FILE [--passphrase-file PATH]
                 Write the whole vault to FILE: a zip (vault.json, the journal
                 as Markdown, the photos, manifest.json), or with a passphrase
                 (the first line of PATH) an age file.
  import FILE [--passphrase-file PATH]
                 Restore an export into this vault, which must be empty (a
                 fresh one, or after start-new-vault). All or nothing.
  import-journal FILE
                 Add another app's journal to this vault: a Day One JSON
                 export (.zip), a zip of Markdown or text notes, or a Vault
                 export's journal. Entries already imported are not added again.

Stop the embedded vault first: its database serves one vault process at a
time (the command starts it for itself, and refuses while the vault runs).
`;

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stdout.write('New owner password: ');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) return line;
  return '';
}

function openAuthConnection(config: VaultConfig) {
  return openConnection(
    config.VAULT_MODE === 'embedded'
      ? // The vault's own PostgreSQL server, started for this command (and a PGlite folder imported first, as the vault would).
        {
          kind: 'embedded',
          dataDir: resolve(config.VAULT_DATA_DIR),
          pgliteImport: serviceMigrations(),
          poolSize: 1,
          log: (message) => process.stderr.write(`${message}\n`),
        }
      : { kind: 'postgres', url: databaseUrlFor(config, 'auth') },
  );
}

async function startNewVault() {
  if (!process.argv.includes('--erase-confirmed')) {
    process.stderr.write('start-new-vault needs --erase-confirmed: it begins a new, empty vault after a self-destruct.\n');
    process.exit(2);
  }
  const connection = await openAuthConnection(loadProcessConfig('cli'));
  try {
    const outcome = await resetDestroyedVault(connection);
    process.stdout.write(
      outcome === 'reset'
        ? 'A new, empty vault will open at the next start. Set the owner password (set-password or VAULT_OWNER_PASSWORD_HASH).\n'
        : 'This vault is not destroyed: nothing changed.\n',
    );
  } finally {
    await connection.close();
  }
}

/** Whether the operator typed "yes" at the prompt (or passed --yes). */
async function confirmed(question: string): Promise<boolean> {
  if (process.argv.includes('--yes')) return true;
  process.stdout.write(`${question} Type "yes" to go on: `);
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) return line.trim().toLowerCase() === 'yes';
  return false;
}

/** The operator's way back in for an owner who lost every factor and every recovery code. */
async function resetSecondFactorCommand() {
  if (!(await confirmed('This removes every second factor and recovery code of the owner.'))) {
    process.stderr.write('Nothing changed.\n');
    process.exit(2);
  }
  const connection = await openAuthConnection(loadProcessConfig('cli'));
  try {
    process.stdout.write(secondFactorResetReport(await resetSecondFactor(connection)));
  } finally {
    await connection.close();
  }
}

async function setPassword() {
  const config = loadProcessConfig('cli');
  const connection = await openAuthConnection(config);
  try {
    await setOwnerPassword(connection, await readPassword(), [config.VAULT_OWNER_NAME, config.VAULT_OWNER_USERNAME]);
    process.stdout.write('The owner password has been changed. Sign in again with it.\n');
  } finally {
    await connection.close();
  }
}

const command = process.argv[2];
if (command === 'set-password') {
  setPassword().catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
} else if (command === 'start-new-vault') {
  startNewVault().catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
} else if (command === 'reset-second-factor') {
  resetSecondFactorCommand().catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
} else if (command === 'export' || command === 'import' || command === 'import-journal') {
  ({ export: exportCommand, import: importCommand, 'import-journal': importJournalCommand })[command](process.argv.slice(3)).catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
} else {
  process.stdout.write(USAGE);
  process.exit(command ? 2 : 0);
}
