import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { MemorySessionStore } from './memory-session.store.js';
import { isWellFormedSessionId } from './session-id.js';

const owner = { username: 'agent', name: 'Agent' };

describe('MemorySessionStore', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('issues unguessable, distinct ids and finds their data', async () => {
    const store = new MemorySessionStore(60_000);
    const a = await store.create({ owner, signedInAt: Date.now() });
    const b = await store.create({ owner, signedInAt: Date.now() });
    expect(isWellFormedSessionId(a)).toBe(true);
    expect(a).not.toBe(b);
    expect(await store.get(a)).toMatchObject({ owner });
    await store.close();
  });

  it('forgets a session once its time to live after sign-in has passed', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const store = new MemorySessionStore(30 * 60_000);
    const id = await store.create({ owner, signedInAt: Date.now() });
    jest.setSystemTime(1_000_000 + 30 * 60_000 - 1);
    expect(await store.get(id)).toBeDefined();
    jest.setSystemTime(1_000_000 + 30 * 60_000);
    expect(await store.get(id)).toBeUndefined();
    await store.close();
  });

  it('destroys one session, or all of them', async () => {
    const store = new MemorySessionStore(60_000);
    const a = await store.create({ owner, signedInAt: Date.now() });
    const b = await store.create({ owner, signedInAt: Date.now() });
    await store.destroy(a);
    expect(await store.get(a)).toBeUndefined();
    expect(await store.get(b)).toBeDefined();
    await store.clear();
    expect(await store.get(b)).toBeUndefined();
    await store.close();
  });
});
