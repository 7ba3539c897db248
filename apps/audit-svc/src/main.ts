import { AUDIT_MIGRATIONS, AuditModule } from '@vault/audit';
import { loadVaultConfig, migrateService, run, startService } from '@vault/host';

// `main.js migrate` applies the migrations and exits (a deploy job); otherwise the service serves.
run(() => {
  const config = loadVaultConfig();
  if (process.argv[2] === 'migrate') return migrateService(config, 'audit', { schema: 'audit', folder: AUDIT_MIGRATIONS });
  return startService(config, 'audit', AuditModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS }));
});
