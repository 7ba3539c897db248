import { Controller } from '@nestjs/common';
import { ExportSettings, ImportSettings, type RpcRequest, type SettingsRecord } from '@vault/contracts';
import { Handles } from '@vault/transport';
import { VaultStateRepository } from '../vault-state/vault-state.repository.js';

/**
 * auth-svc's part of an export: the owner's settings. The password hash is
 * not the owner's data to carry about: the new vault keeps its own
 * credential, and the lockout records are about strangers' addresses.
 */
@Controller()
export class AuthArchiveHandlers {
  constructor(private readonly state: VaultStateRepository) {}

  @Handles(ExportSettings)
  async export(): Promise<SettingsRecord> {
    return { globalAccess: (await this.state.read()).globalAccess };
  }

  @Handles(ImportSettings)
  async import(request: RpcRequest<typeof ImportSettings>): Promise<SettingsRecord> {
    return { globalAccess: (await this.state.update({ globalAccess: request.globalAccess })).globalAccess };
  }
}
