import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { GetVaultState, type VaultState } from '@vault/contracts';
import { RpcClient } from '@vault/transport';

/** The oldest state a request is answered by: a switch flipped on another replica counts here within this. */
export const FRESH_MS = 1000;
/**
 * From this age a request is still answered by the cached state, and a
 * fresh one is asked of auth-svc beside it: under a steady load no request
 * waits for auth-svc. Asked only when stale, each second's requests queued
 * behind one answer, and a pause of auth-svc's collector there (its memory
 * reducer runs a full collection where it sees a process as idle, about 60
 * ms) stalled every one of them (issue 37: the paced p99).
 */
export const REFRESH_AFTER_MS = FRESH_MS / 2;

/**
 * Whether the vault is public or destroyed, asked of auth-svc about twice a
 * second per gateway under load. The replica that flips a switch knows at
 * once; other replicas within a second.
 */
@Injectable()
export class VaultStateCache {
  private cached?: { state: VaultState; at: number };
  private inFlight?: Promise<VaultState>;

  constructor(private readonly rpc: RpcClient) {}

  async get(): Promise<VaultState> {
    const age = this.cached ? Date.now() - this.cached.at : Number.POSITIVE_INFINITY;
    if (age >= FRESH_MS) return this.fresh();
    if (age >= REFRESH_AFTER_MS && !this.inFlight) void this.fresh().catch(() => undefined);
    return this.cached!.state;
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
