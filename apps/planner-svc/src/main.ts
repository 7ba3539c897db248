import { loadVaultConfig, run, startService } from '@vault/host';
import { PlannerModule } from '@vault/planner';

run(() => {
  const config = loadVaultConfig();
  return startService(config, 'planner', PlannerModule.forRoot({ migrate: !config.VAULT_SKIP_MIGRATIONS }));
});
