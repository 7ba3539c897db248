import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RpcReply, VaultState } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { AUTH_MIGRATIONS } from '../src/database.js';
import { LockoutService } from '../src/lockout/lockout.service.js';
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
    await applyMigrations(connection, { schema: 'auth', folder: AUTH_MIGRATIONS });
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  describe('the lockout', () => {
    const lockout = () => new LockoutService(drizzleFor(connection), { maxFailures: 5, lockoutSeconds: 900 });

    it('judges five places of a streak and locks the address at the fifth failure', async () => {
      const service = lockout();
      const places = [];
      for (let i = 0; i < 5; i++) {
        const claim = await service.claim('203.0.113.1');
        places.push(claim);
        if (claim.judged) await service.recordFailure('203.0.113.1', claim.position);
      }
      expect(places).toEqual([1, 2, 3, 4, 5].map((position) => ({ judged: true, position })));
      expect(await service.claim('203.0.113.1')).toEqual({ judged: false });
      // Another address is not locked out by the first.
      expect(await service.claim('203.0.113.2')).toEqual({ judged: true, position: 1 });
    });

    it('judges at most five of fifty attempts that arrive at once', async () => {
      const claims = await Promise.all(Array.from({ length: 50 }, () => lockout().claim('198.51.100.9')));
      const judged = claims.filter((claim) => claim.judged).map((claim) => claim.judged && claim.position);
      expect(judged.sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('ends a streak on the right password when no other attempt came after it', async () => {
      const service = lockout();
      const first = await service.claim('192.0.2.5');
      expect(first).toEqual({ judged: true, position: 1 });
      await service.release('192.0.2.5', 1);
      expect(await db.query("select * from auth.login_failures where ip_address = '192.0.2.5'")).toEqual([]);
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
