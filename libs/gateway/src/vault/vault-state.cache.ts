import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { GetVaultState, type VaultState } from '@vault/contracts';
import { RpcClient } from '@vault/transport';

const FRESH_MS = 1000;

/**
 * Whether the vault is public or destroyed, asked of auth-svc at most once a
 * second per gateway. The replica that flips a switch knows at once; other
 * replicas within a second.
 */
@Injectable()
export class VaultStateCache {
  private cached?: { state: VaultState; at: number };
  private inFlight?: Promise<VaultState>;

  constructor(private readonly rpc: RpcClient) {}

  async get(): Promise<VaultState> {
    if (this.cached && Date.now() - this.cached.at < FRESH_MS) return this.cached.state;
    return this.fresh();
  }

  /**
   * Asks auth-svc now, whatever is cached: before a refusal is written to the
   * access log, so that a replica which has not yet heard of a self-destruct
   * taken by another one does not log into the vault just erased.
   */
  async fresh(): Promise<VaultState> {
    this.inFlight ??= this.rpc
      .send(GetVaultState, {})
      .then((state) => this.set(state))
      .finally(() => (this.inFlight = undefined));
    try {
      return await this.inFlight;
    } catch (error) {
      // Without auth-svc, a recent answer is better than refusing everything; with none, refuse.
      if (this.cached && Date.now() - this.cached.at < 30_000) return this.cached.state;
      throw error instanceof Error && 'status' in error ? error : new ServiceUnavailableException('The auth service is unavailable. Try again shortly.');
    }
  }

  set(state: VaultState): VaultState {
    this.cached = { state, at: Date.now() };
    return state;
  }
}
