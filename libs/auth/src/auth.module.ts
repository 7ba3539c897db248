import { Module, type DynamicModule } from '@nestjs/common';
import { AuthArchiveHandlers } from './archive/auth-archive.handlers.js';
import { ServiceDatabaseModule } from '@vault/persistence';
import { AUTH_DB, AUTH_MIGRATIONS } from './database.js';
import { LOCKOUT_OPTIONS, type LockoutOptions } from './lockout/lockout.options.js';
import { LockoutService } from './lockout/lockout.service.js';
import { OwnerCredentialRepository } from './owner/owner-credential.repository.js';
import { OwnerCredentialService } from './owner/owner-credential.service.js';
import { OwnerHandlers } from './owner/owner.handlers.js';
import { OWNER_OPTIONS, type OwnerOptions } from './owner/owner.options.js';
import { SecondFactorHandlers } from './second-factor/second-factor.handlers.js';
import { SecondFactorRepository } from './second-factor/second-factor.repository.js';
import { SecondFactorService } from './second-factor/second-factor.service.js';
import { VaultStateHandlers } from './vault-state/vault-state.handlers.js';
import { VaultStateRepository } from './vault-state/vault-state.repository.js';

export interface AuthOptions {
  owner: OwnerOptions;
  migrate: boolean;
  lockout: LockoutOptions;
}

/** auth-svc: the owner's credential and second factors, sign-in lockout and the vault's state. */
@Module({})
export class AuthModule {
  static forRoot(options: AuthOptions): DynamicModule {
    return {
      module: AuthModule,
      imports: [
        ServiceDatabaseModule.forService({
          token: AUTH_DB,
          migrations: AUTH_MIGRATIONS,
          migrate: options.migrate,
        }),
      ],
      controllers: [OwnerHandlers, VaultStateHandlers, AuthArchiveHandlers, SecondFactorHandlers],
      providers: [
        { provide: OWNER_OPTIONS, useValue: options.owner },
        { provide: LOCKOUT_OPTIONS, useValue: options.lockout },
        LockoutService,
        OwnerCredentialRepository,
        OwnerCredentialService,
        VaultStateRepository,
        SecondFactorRepository,
        SecondFactorService,
      ],
    };
  }
}
