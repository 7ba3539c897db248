import { AUDIT_MIGRATIONS, AuditModule } from '@vault/audit';
import { AUTH_MIGRATIONS, AuthModule } from '@vault/auth';
import { authOptions, type VaultConfig } from '@vault/host';
import { JOURNAL_MIGRATIONS, JournalModule, parseMasterKey } from '@vault/journal';
import { MEDIA_MIGRATIONS, MediaModule } from '@vault/media';
import type { ServiceMigrations } from '@vault/persistence';
import { PLANNER_MIGRATIONS, PlannerModule } from '@vault/planner';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';

/** Every service's domain module, as the embedded process hosts them side by side. */
export function domainModules(config: VaultConfig) {
  const migrate = !config.VAULT_SKIP_MIGRATIONS;
  return [
    AuthModule.forRoot(authOptions(config)),
    PlannerModule.forRoot({ migrate }),
    JournalModule.forRoot({ migrate, masterKey: embeddedMasterKey(config) }),
    AuditModule.forRoot({ migrate }),
    // Photos as files beside the data; upload URLs are signed per process (a restart only voids unused ones).
    MediaModule.forRoot({ migrate, store: { kind: 'file', dir: join(resolve(config.VAULT_DATA_DIR), 'objects'), signingKey: randomBytes(32) } }),
  ];
}

/** VAULT_MASTER_KEY when given; otherwise the key file beside the data, made with the first data key and deleted by a self-destruct. */
export function embeddedMasterKey(config: VaultConfig): Buffer | { file: string } {
  return config.VAULT_MASTER_KEY ? parseMasterKey(config.VAULT_MASTER_KEY) : { file: join(resolve(config.VAULT_DATA_DIR), 'master.key') };
}

/** Every service's schema and migrations: what importing a PGlite data folder (a vault before ADR 0009) rebuilds. */
export function serviceMigrations(): ServiceMigrations[] {
  return [AUTH_MIGRATIONS, PLANNER_MIGRATIONS, JOURNAL_MIGRATIONS, MEDIA_MIGRATIONS, AUDIT_MIGRATIONS];
}
