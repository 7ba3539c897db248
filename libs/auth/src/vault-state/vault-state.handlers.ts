import { Controller } from '@nestjs/common';
import { EraseAuth, GetVaultState, MarkVaultDestroyed, SetGlobalAccess, type RpcRequest, type VaultState } from '@vault/contracts';
import type { Database } from '@vault/persistence';
import { Handles } from '@vault/transport';
import { InjectAuthDb } from '../database.js';
import { OwnerCredentialService } from '../owner/owner-credential.service.js';
import { loginFailures } from '../schema/login-failures.table.js';
import { ownerCredential } from '../schema/owner-credential.table.js';
import { clearSecondFactorData } from '../second-factor/second-factor.repository.js';
import { VaultStateRepository } from './vault-state.repository.js';

/** The vault's two drastic switches: public (global access) and destroyed. */
@Controller()
export class VaultStateHandlers {
  constructor(
    private readonly state: VaultStateRepository,
    private readonly credentials: OwnerCredentialService,
    @InjectAuthDb() private readonly db: Database,
  ) {}

  @Handles(GetVaultState)
  read(): Promise<VaultState> {
    return this.state.read();
  }

  @Handles(SetGlobalAccess)
  setGlobalAccess(request: RpcRequest<typeof SetGlobalAccess>): Promise<VaultState> {
    return this.state.update({ globalAccess: request.enabled });
  }

  /** Recorded before anything is erased, so a half-finished self-destruct still refuses every call. */
  @Handles(MarkVaultDestroyed)
  markDestroyed(): Promise<VaultState> {
    return this.state.update({ destroyed: true, globalAccess: false });
  }

  /** auth-svc's share of the erase: the credential, the second factors and recovery codes, the lockout records; the destroyed mark stays. */
  @Handles(EraseAuth)
  async erase() {
    await this.db.transaction(async (tx) => {
      await clearSecondFactorData(tx as unknown as Database);
      await tx.delete(ownerCredential);
      await tx.delete(loginFailures);
    });
    this.credentials.forget();
    return { service: 'auth', erased: true as const };
  }
}
