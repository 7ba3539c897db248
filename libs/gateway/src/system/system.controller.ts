import { Controller, Get } from '@nestjs/common';
import { GetOwnerProfile, type Owner, type SystemStatus } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { Public } from '@vault/platform';
import { SurvivesDestruction } from '../vault/route-flags.js';
import { VaultStateCache } from '../vault/vault-state.cache.js';

@Controller('api/system')
export class SystemController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly vault: VaultStateCache,
  ) {}

  @Public()
  @SurvivesDestruction()
  @Get('status')
  async status(): Promise<SystemStatus> {
    return { destroyed: (await this.vault.get()).destroyed };
  }

  /** The owner's display name and username, which the login and farewell screens show. */
  @Public()
  @SurvivesDestruction()
  @Get('owner')
  owner(): Promise<Owner> {
    return this.rpc.send(GetOwnerProfile, {});
  }
}
