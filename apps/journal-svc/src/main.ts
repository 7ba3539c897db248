import { loadVaultConfig, migrateService, requireMasterKey, run, startService } from '@vault/host';
import { JOURNAL_MIGRATIONS, JournalModule, parseMasterKey } from '@vault/journal';

// `main.js migrate` applies the migrations and exits (a deploy job, no master key needed); otherwise the service serves.
run(() => {
  const config = loadVaultConfig();
  if (process.argv[2] === 'migrate') return migrateService(config, 'journal', { schema: 'journal', folder: JOURNAL_MIGRATIONS });
  const masterKey = parseMasterKey(requireMasterKey(config));
  return startService(config, 'journal', JournalModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS, masterKey }));
});
