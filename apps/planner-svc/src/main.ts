import { loadVaultConfig, migrateService, run, startService } from '@vault/host';
import { PLANNER_MIGRATIONS, PlannerModule } from '@vault/planner';

// `main.js migrate` applies the migrations and exits (a deploy job); otherwise the service serves.
run(() => {
  const config = loadVaultConfig();
  if (process.argv[2] === 'migrate') return migrateService(config, 'planner', { schema: 'planner', folder: PLANNER_MIGRATIONS });
  return startService(config, 'planner', PlannerModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS }));
});
