import { AuthModule } from '@vault/auth';
import { ownerOptions, type VaultConfig } from '@vault/host';
import { PlannerModule } from '@vault/planner';

/** Every service's domain module, as the embedded process hosts them side by side. */
export function domainModules(config: VaultConfig) {
  const migrate = !config.VAULT_SKIP_MIGRATIONS;
  return [AuthModule.forRoot({ owner: ownerOptions(config), migrate }), PlannerModule.forRoot({ migrate })];
}
