import { Controller, Get } from '@nestjs/common';
import { GetOwnerProfile, GetVaultState, type Owner, type SystemStatus } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { Public } from '@vault/platform';

@Controller('api/system')
export class SystemController {
  constructor(private readonly rpc: RpcClient) {}

  @Public()
  @Get('status')
  async status(): Promise<SystemStatus> {
    const state = await this.rpc.send(GetVaultState, {});
    return { destroyed: state.destroyed };
  }

  /** The owner's display name and username, which the login and farewell screens show. */
  @Public()
  @Get('owner')
  owner(): Promise<Owner> {
    return this.rpc.send(GetOwnerProfile, {});
  }
}
