import { Controller } from '@nestjs/common';
import { GetVaultState, type VaultState } from '@vault/contracts';
import { Handles } from '@vault/transport';
import { VaultStateRepository } from './vault-state.repository.js';

@Controller()
export class VaultStateHandlers {
  constructor(private readonly state: VaultStateRepository) {}

  @Handles(GetVaultState)
  read(): Promise<VaultState> {
    return this.state.read();
  }
}
