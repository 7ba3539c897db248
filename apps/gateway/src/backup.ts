// `node dist/backup.js FILE [--passphrase-file PATH]`: the whole vault to FILE
// (an age file with a passphrase), from the running services over NATS. What
// a scheduled backup (a CronJob on the gateway image) runs; see docs/deploy.md.
const { loadProcessConfig, run, writeBackup } = await import('@vault/host');

const args = process.argv.slice(2);
const at = args.indexOf('--passphrase-file');
const passphraseFile = at === -1 ? undefined : args[at + 1];
const file = args.find((arg, i) => !arg.startsWith('--') && i !== at + 1);

if (!file || (at !== -1 && !passphraseFile)) {
  process.stderr.write('Usage: node dist/backup.js FILE [--passphrase-file PATH]\n');
  process.exit(2);
}

run(async () => {
  await writeBackup(loadProcessConfig('gateway', 'backup'), file!, passphraseFile);
  process.stdout.write(`Backup written to ${file}\n`);
});
