import { loadVaultConfig, requireMasterKey, run, startService } from '@vault/host';
import { JournalModule, parseMasterKey } from '@vault/journal';

run(() => {
  const config = loadVaultConfig();
  const masterKey = parseMasterKey(requireMasterKey(config));
  return startService(config, 'journal', JournalModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS, masterKey }));
});
