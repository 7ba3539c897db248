import { Inject, Injectable } from '@nestjs/common';
import { contextLogger } from '@vault/platform';
import { GetVaultState, MarkVaultDestroyed, VaultDestroyed, eraseContract } from '@vault/contracts';
import { EventBus, RpcClient, RpcFailure } from '@vault/transport';
import type { FastifyRequest } from 'fastify';
import { ATTEMPT_COUNTER, type AttemptCounter } from '../auth/login-rate-limit.js';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options.js';
import { IMPORT_PROGRESS, type ImportProgressStore } from '../archive/import-progress.store.js';
import { PENDING_SIGN_INS, type PendingSignInStore } from '../session/pending-sign-in.store.js';
import { SESSION_STORE, type SessionStore } from '../session/session.store.js';
import { VaultStateCache } from './vault-state.cache.js';

/**
 * The self-destruct protocol: mark the vault destroyed (so everything is
 * refused from now on), then erase: end every session, forget the sign-in
 * counters (they hold client addresses) and the imports' progress, broadcast the kept event, and ask
 * each service to erase and confirm. Success only when all have confirmed; a
 * service that does not answer erases from the event when it is back. Every
 * step is idempotent, so the erase can be run again after a crash
 * (`finishInterruptedErasure`).
 */
@Injectable()
export class SelfDestructService {
  private readonly logger = contextLogger('SelfDestruct');

  constructor(
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
    private readonly state: VaultStateCache,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(PENDING_SIGN_INS) private readonly pendingSignIns: PendingSignInStore,
    @Inject(IMPORT_PROGRESS) private readonly importProgress: ImportProgressStore,
    @Inject(ATTEMPT_COUNTER) private readonly attempts: AttemptCounter,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {}

  async execute(request: FastifyRequest): Promise<{ destroyed: true }> {
    this.logger.warn({ ip: request.ip, userAgent: request.headers['user-agent'] ?? null }, 'Self-destruct requested by the owner');
    this.state.set(await this.rpc.send(MarkVaultDestroyed, {}));
    const missing = await this.eraseEverything();
    if (missing.length > 0) {
      this.logger.error(`Self-destruct pending: ${missing.join(', ')} did not confirm`);
      throw new RpcFailure(
        503,
        `Self-destruct is pending: ${missing.map((s) => `${s}-svc`).join(', ')} did not confirm. The vault is locked as destroyed, and each service erases its data when it is back.`,
      );
    }
    return { destroyed: true };
  }

  /**
   * At start, before serving: a vault that is marked destroyed runs its erase
   * again, in case a crash cut the last one short (the mark is written first).
   * Returns the services that did not confirm.
   */
  async finishInterruptedErasure(): Promise<string[]> {
    const state = this.state.set(await this.rpc.send(GetVaultState, {}));
    if (!state.destroyed) return [];
    const missing = await this.eraseEverything();
    if (missing.length === 0) this.logger.info('The vault is destroyed: its erase is complete');
    return missing;
  }

  /** Everything the erase does after the mark; the services that did not confirm. */
  private async eraseEverything(): Promise<string[]> {
    await this.sessions.clear().catch((error: Error) => this.logger.error(`sessions not cleared: ${error.message}`));
    await this.pendingSignIns.clear().catch((error: Error) => this.logger.error(`pending sign-ins not cleared: ${error.message}`));
    await this.importProgress.clear().catch((error: Error) => this.logger.error(`import progress not cleared: ${error.message}`));
    await this.attempts.clear().catch((error: Error) => this.logger.error(`sign-in counters not cleared: ${error.message}`));
    this.events.publish(VaultDestroyed, { at: new Date().toISOString() });
    await this.events.flush();
    const results = await Promise.allSettled(this.options.services.map((service) => this.rpc.send(eraseContract(service), {})));
    return this.options.services.filter((_, i) => results[i].status === 'rejected');
  }
}
