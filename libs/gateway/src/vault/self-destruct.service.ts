import { Inject, Injectable, Logger } from '@nestjs/common';
import { MarkVaultDestroyed, VaultDestroyed, eraseContract } from '@vault/contracts';
import { EventBus, RpcClient, RpcFailure } from '@vault/transport';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options.js';
import { SESSION_STORE, type SessionStore } from '../session/session.store.js';
import { VaultStateCache } from './vault-state.cache.js';

/**
 * The self-destruct protocol: mark the vault destroyed (so everything is
 * refused from now on), end every session, broadcast the kept event, and ask
 * each service to erase and confirm. Success only when all have confirmed; a
 * service that does not answer erases from the event when it is back.
 */
@Injectable()
export class SelfDestructService {
  private readonly logger = new Logger('SelfDestruct');

  constructor(
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
    private readonly state: VaultStateCache,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {}

  async execute(request: FastifyRequest): Promise<{ destroyed: true }> {
    this.logger.warn({ ip: request.ip, userAgent: request.headers['user-agent'] }, 'Self-destruct requested by the owner');
    this.state.set(await this.rpc.send(MarkVaultDestroyed, {}));
    await this.sessions.clear().catch((error: Error) => this.logger.error(`sessions not cleared: ${error.message}`));
    this.events.publish(VaultDestroyed, { at: new Date().toISOString() });
    await this.events.flush();
    const results = await Promise.allSettled(this.options.services.map((service) => this.rpc.send(eraseContract(service), {})));
    const missing = this.options.services.filter((_, i) => results[i].status === 'rejected');
    if (missing.length > 0) {
      this.logger.error(`Self-destruct pending: ${missing.join(', ')} did not confirm`);
      throw new RpcFailure(
        503,
        `Self-destruct is pending: ${missing.map((s) => `${s}-svc`).join(', ')} did not confirm. The vault is locked as destroyed, and each service erases its data when it is back.`,
      );
    }
    return { destroyed: true };
  }
}
