import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { VaultState } from '@vault/contracts';
import type { RpcClient } from '@vault/transport';
import { FRESH_MS, REFRESH_AFTER_MS, VaultStateCache } from './vault-state.cache.js';

const OPEN = { destroyed: false, globalAccess: true } as unknown as VaultState;
const CLOSED = { destroyed: false, globalAccess: false } as unknown as VaultState;

/** auth-svc as the cache sees it: each ask answered only when the test says so. */
function authService() {
  const asks: Array<(state: VaultState) => void> = [];
  const rpc = { send: () => new Promise<VaultState>((resolve) => asks.push(resolve)) } as unknown as RpcClient;
  return { rpc, asks };
}

const settled = async <T>(promise: Promise<T>) => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

describe('VaultStateCache', () => {
  // The cache's clock: each test moves it by hand.
  let now = 1_000_000;
  beforeEach(() => {
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('answers from the cache while it is fresh, and asks auth-svc beside it once it is half its age: no request waits', async () => {
    const auth = authService();
    const cache = new VaultStateCache(auth.rpc);
    cache.set(OPEN);
    now += REFRESH_AFTER_MS - 1;
    expect(await cache.get()).toBe(OPEN);
    expect(auth.asks).toHaveLength(0);
    now += 1;
    // auth-svc paused (its collector, say): the request is answered all the same.
    const answer = cache.get();
    expect(await settled(answer)).toBe(true);
    expect(await answer).toBe(OPEN);
    expect(auth.asks).toHaveLength(1);
    // One ask at a time, however many requests come meanwhile.
    await cache.get();
    expect(auth.asks).toHaveLength(1);
    auth.asks[0](CLOSED);
    await Promise.resolve();
    await Promise.resolve();
    expect(await cache.get()).toBe(CLOSED);
  });

  it('waits for auth-svc once the cached state is a second old: a switch flipped elsewhere counts within a second', async () => {
    const auth = authService();
    const cache = new VaultStateCache(auth.rpc);
    cache.set(OPEN);
    now += FRESH_MS;
    const answer = cache.get();
    expect(await settled(answer)).toBe(false);
    auth.asks[0](CLOSED);
    expect(await answer).toBe(CLOSED);
  });

  it('a background ask that fails leaves the cached state to age out', async () => {
    const rpc = { send: () => Promise.reject(new Error('auth-svc down')) } as unknown as RpcClient;
    const cache = new VaultStateCache(rpc);
    cache.set(OPEN);
    now += REFRESH_AFTER_MS;
    expect(await cache.get()).toBe(OPEN);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.get()).toBe(OPEN);
  });
});
