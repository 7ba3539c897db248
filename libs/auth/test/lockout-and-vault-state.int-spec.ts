import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RpcReply, VaultState } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, slowTcpProxy, type TestDatabase } from '@vault/testing';
import { AUTH_MIGRATIONS } from '../src/database.js';
import { LockoutService, type SignInClaim } from '../src/lockout/lockout.service.js';
import type { OwnerCredentialService } from '../src/owner/owner-credential.service.js';
import { resetDestroyedVault } from '../src/reset-destroyed-vault.js';
import { VaultStateHandlers } from '../src/vault-state/vault-state.handlers.js';
import { VaultStateRepository } from '../src/vault-state/vault-state.repository.js';

/**
 * auth-svc's lockout and vault state on a fresh PostgreSQL database with
 * auth-svc's own migrations: the service and the handlers as Nest would
 * build them, without Nest, a broker or a gateway.
 */
describe('auth-svc on its own database', () => {
  let db: TestDatabase;
  let connection: Connection;

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 10 });
    await applyMigrations(connection, AUTH_MIGRATIONS);
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  describe('the lockout', () => {
    const lockout = () => new LockoutService(drizzleFor(connection), { maxFailures: 5, lockoutSeconds: 900 });

    it('judges five wrong passwords of a streak and locks the address at the fifth', async () => {
      const service = lockout();
      const verdicts = [];
      for (let i = 0; i < 5; i++) {
        const claim = await service.claim('203.0.113.1');
        verdicts.push({ claim, locked: claim.judged && (await service.recordFailure('203.0.113.1')) });
      }
      expect(verdicts).toEqual([0, 1, 2, 3, 4].map((failuresBefore) => ({ claim: { judged: true, failuresBefore }, locked: failuresBefore === 4 })));
      expect(await service.claim('203.0.113.1')).toEqual({ judged: false, reason: 'locked' });
      expect(await service.claimInTurn('203.0.113.1')).toEqual({ judged: false, reason: 'locked' });
      // Another address is not locked out by the first.
      expect(await service.claim('203.0.113.2')).toEqual({ judged: true, failuresBefore: 0 });
    });

    it('judges at most five of fifty attempts that arrive at once', async () => {
      const claims = await Promise.all(Array.from({ length: 50 }, () => lockout().claim('198.51.100.9')));
      expect(claims.filter((claim) => claim.judged)).toHaveLength(5);
      expect(claims.filter((claim) => !claim.judged && claim.reason === 'busy')).toHaveLength(45);
    });

    it('never counts a right password toward the lock, however the sign-ins overlap', async () => {
      const service = lockout();
      // Four at a time, ten rounds, each settled in another order: a phone, a laptop and an app behind one router.
      for (let round = 0; round < 10; round++) {
        const claims = await Promise.all(Array.from({ length: 4 }, () => service.claim('192.0.2.44')));
        expect(claims).toEqual(Array.from({ length: 4 }, () => ({ judged: true, failuresBefore: 0 })));
        const order = round % 2 === 0 ? [0, 1, 2, 3] : [3, 1, 0, 2];
        for (const i of order) await service.release('192.0.2.44', claims[i] as { judged: true; failuresBefore: number });
      }
      expect(await db.query("select * from auth.login_failures where ip_address = '192.0.2.44'")).toEqual([]);
    });

    it('waits its turn while the places are held by attempts being judged, then is judged', async () => {
      const service = lockout();
      const held = await Promise.all(Array.from({ length: 5 }, () => service.claim('192.0.2.45')));
      expect(held.every((claim) => claim.judged)).toBe(true);
      expect(await service.claim('192.0.2.45')).toEqual({ judged: false, reason: 'busy' });
      const waiting = service.claimInTurn('192.0.2.45');
      await service.release('192.0.2.45', { judged: true, failuresBefore: 0 });
      expect(await waiting).toEqual({ judged: true, failuresBefore: 0 });
    });

    it('ends the streak of failures older than a minute at the right password, and forgets the address', async () => {
      const service = lockout();
      for (let i = 0; i < 3; i++) {
        await service.claim('192.0.2.5');
        await service.recordFailure('192.0.2.5');
      }
      await db.query("update auth.login_failures set last_wrong_at = now() - interval '61 seconds' where ip_address = '192.0.2.5'");
      const right = await service.claim('192.0.2.5');
      expect(right).toEqual({ judged: true, failuresBefore: 3 });
      await service.release('192.0.2.5', right as { judged: true; failuresBefore: number });
      expect(await db.query("select * from auth.login_failures where ip_address = '192.0.2.5'")).toEqual([]);
    });

    it('keeps the failures of the last minute after the right password: guesses around it are judged five at most', async () => {
      const service = lockout();
      const wrong = async () => {
        const claim = await service.claim('192.0.2.7');
        expect(claim.judged).toBe(true);
        return service.recordFailure('192.0.2.7');
      };
      for (let i = 0; i < 3; i++) await wrong();
      const right = await service.claim('192.0.2.7');
      expect(right).toEqual({ judged: true, failuresBefore: 3 });
      // A guess judged while the right password is being hashed counts after it, as do the three before it.
      await wrong();
      await service.release('192.0.2.7', right as { judged: true; failuresBefore: number });
      expect(await db.query("select failures, in_flight from auth.login_failures where ip_address = '192.0.2.7'")).toEqual([{ failures: 4, in_flight: 0 }]);
      // So the fifth wrong password of the minute locks, the right one between them notwithstanding.
      expect(await wrong()).toBe(true);
      expect(await service.claim('192.0.2.7')).toEqual({ judged: false, reason: 'locked' });
    });

    it('judges fifty sign-ins at once over a slow network without running out of connections', async () => {
      // 20 ms each way per chunk: a claim that held the address's row over several round trips made the others wait past the pool's 2 s.
      const proxy = await slowTcpProxy(new URL(db.url), 5432, { chunkDelayMs: 20 });
      const slow = await openConnection({ kind: 'postgres', url: proxy.url, poolSize: 10, connectionWaitMs: 2000 });
      try {
        const service = new LockoutService(drizzleFor(slow), { maxFailures: 5, lockoutSeconds: 900 });
        const attempts = await Promise.allSettled(
          Array.from({ length: 50 }, async () => {
            const claim = await service.claimInTurn('192.0.2.8');
            if (claim.judged) await service.judge('192.0.2.8', () => service.recordFailure('192.0.2.8'));
            return claim;
          }),
        );
        expect(attempts.filter((attempt) => attempt.status === 'rejected').map((attempt) => String((attempt as PromiseRejectedResult).reason))).toEqual([]);
        const claims = attempts.map((attempt) => (attempt as PromiseFulfilledResult<SignInClaim>).value);
        expect(claims.filter((claim) => claim.judged)).toHaveLength(5);
        expect(claims.filter((claim) => !claim.judged && claim.reason === 'locked')).toHaveLength(45);
      } finally {
        await slow.close();
        await proxy.close();
      }
    }, 30_000);

    it('gives the place back when judging fails, and frees places a crash left after a minute', async () => {
      const service = lockout();
      await service.claim('192.0.2.6');
      await expect(service.judge('192.0.2.6', async () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
      expect(await db.query("select failures, in_flight from auth.login_failures where ip_address = '192.0.2.6'")).toEqual([{ failures: 0, in_flight: 0 }]);
      for (let i = 0; i < 5; i++) await service.claim('192.0.2.6');
      expect(await service.claim('192.0.2.6')).toEqual({ judged: false, reason: 'busy' });
      await db.query("update auth.login_failures set last_failure_at = now() - interval '61 seconds' where ip_address = '192.0.2.6'");
      expect(await service.claim('192.0.2.6')).toEqual({ judged: true, failuresBefore: 0 });
    });
  });

  describe('the vault state', () => {
    let handlers: VaultStateHandlers;
    // The decorated handler takes the envelope the transport delivers and answers an RpcReply.
    const call = (handler: unknown, data: unknown = {}) => (handler as (e: unknown) => Promise<RpcReply<VaultState>>).call(handlers, { data, meta: {} });

    beforeAll(() => {
      // The credential service is only used by the erase, which this spec does not call.
      handlers = new VaultStateHandlers(
        new VaultStateRepository(drizzleFor(connection)),
        undefined as unknown as OwnerCredentialService,
        drizzleFor(connection),
      );
    });

    it('starts neither public nor destroyed, and keeps the global access switch', async () => {
      expect(await call(handlers.read)).toEqual({ ok: true, data: { destroyed: false, globalAccess: false } });
      expect(await call(handlers.setGlobalAccess, { enabled: true })).toEqual({ ok: true, data: { destroyed: false, globalAccess: true } });
      expect(await call(handlers.setGlobalAccess, { enabled: 'yes' })).toMatchObject({ ok: false, error: { status: 400 } });
      expect(await call(handlers.read)).toEqual({ ok: true, data: { destroyed: false, globalAccess: true } });
    });

    it('marks the vault destroyed (and private), which only the operator reset undoes', async () => {
      expect(await call(handlers.markDestroyed)).toEqual({ ok: true, data: { destroyed: true, globalAccess: false } });
      expect(await db.query('select destroyed, global_access from auth.vault_state')).toEqual([{ destroyed: true, global_access: false }]);
      expect(await resetDestroyedVault(connection)).toBe('reset');
      expect(await resetDestroyedVault(connection)).toBe('not-destroyed');
      expect(await call(handlers.read)).toEqual({ ok: true, data: { destroyed: false, globalAccess: false } });
    });
  });
});
