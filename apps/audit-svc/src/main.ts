import { AuditModule } from '@vault/audit';
import { loadVaultConfig, run, startService } from '@vault/host';

run(() => {
  const config = loadVaultConfig();
  return startService(config, 'audit', AuditModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS }));
});
