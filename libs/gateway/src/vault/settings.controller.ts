import { Controller, Delete, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { SetGlobalAccess, type GlobalAccessState } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import type { FastifyRequest } from 'fastify';
import { AccessRecorder } from '../audit/access-recorder.js';
import { RecentAuthenticationGuard } from '../auth/recent-authentication.js';
import { OwnerOnly } from './route-flags.js';
import { SelfDestructService } from './self-destruct.service.js';
import { VaultStateCache } from './vault-state.cache.js';

/**
 * The settings panel's two switches; only the owner's own session may flip
 * them, and turning global access on or destroying the vault also needs a
 * full authentication within the last five minutes.
 */
@Controller('api/settings')
export class SettingsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly state: VaultStateCache,
    private readonly access: AccessRecorder,
    private readonly selfDestruct: SelfDestructService,
  ) {}

  @OwnerOnly()
  @UseGuards(RecentAuthenticationGuard)
  @Post('global-access')
  @HttpCode(200)
  enableGlobalAccess(@Req() request: FastifyRequest) {
    return this.setGlobalAccess(request, true);
  }

  @OwnerOnly()
  @Delete('global-access')
  disableGlobalAccess(@Req() request: FastifyRequest) {
    return this.setGlobalAccess(request, false);
  }

  @OwnerOnly()
  @UseGuards(RecentAuthenticationGuard)
  @Post('self-destruct')
  @HttpCode(200)
  destroy(@Req() request: FastifyRequest) {
    return this.selfDestruct.execute(request);
  }

  private async setGlobalAccess(request: FastifyRequest, enabled: boolean): Promise<GlobalAccessState> {
    const state = this.state.set(await this.rpc.send(SetGlobalAccess, { enabled }));
    this.access.record(request, enabled ? 'global_access_enabled' : 'global_access_disabled', true);
    return { globalAccess: state.globalAccess };
  }
}
