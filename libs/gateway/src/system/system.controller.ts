import { Controller, Get } from '@nestjs/common';
import { GetOwnerProfile, GetPasskeySignIn, type PublicOwner, type SystemStatus } from '@vault/contracts';
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

  /**
   * The owner's display name and username, which the login and farewell
   * screens show, and `passkeySignIn: true` when the login screen may offer a
   * passkey alone (absent otherwise: the spec's answer is unchanged).
   */
  @Public()
  @SurvivesDestruction()
  @Get('owner')
  async owner(): Promise<PublicOwner> {
    const [owner, passkey] = await Promise.all([this.rpc.send(GetOwnerProfile, {}), this.rpc.send(GetPasskeySignIn, {})]);
    return passkey.enabled ? { ...owner, passkeySignIn: true } : owner;
  }
}
