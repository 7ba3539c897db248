import { setOwnerPassword } from '@vault/auth';
import { databaseUrlFor, loadVaultConfig } from '@vault/host';
import { openConnection } from '@vault/persistence';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const USAGE = `Usage: npm run vault -- <command>

Commands:
  set-password   Store a new owner password (read from standard input).
                 Stop the embedded vault first: its data files allow one process at a time.
`;

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stdout.write('New owner password: ');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) return line;
  return '';
}

async function setPassword() {
  const config = loadVaultConfig();
  const connection = await openConnection(
    config.VAULT_MODE === 'embedded'
      ? { kind: 'pglite', dataDir: join(resolve(config.VAULT_DATA_DIR), 'pg') }
      : { kind: 'postgres', url: databaseUrlFor(config, 'auth') },
  );
  try {
    await setOwnerPassword(connection, await readPassword());
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
} else {
  process.stdout.write(USAGE);
  process.exit(command ? 2 : 0);
}
