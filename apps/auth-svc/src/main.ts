import { AuthModule } from '@vault/auth';
import { loadVaultConfig, ownerOptions, run, startService } from '@vault/host';

run(() => {
  const config = loadVaultConfig();
  return startService(config, 'auth', AuthModule.forRoot({ owner: ownerOptions(config), migrate: !config.VAULT_SKIP_MIGRATIONS }));
});
