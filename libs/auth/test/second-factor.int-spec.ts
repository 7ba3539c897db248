import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { AUTH_MIGRATIONS } from '../src/database.js';
import type { OwnerCredentialService } from '../src/owner/owner-credential.service.js';
import { resetSecondFactor } from '../src/reset-second-factor.js';
import { SecondFactorRepository } from '../src/second-factor/second-factor.repository.js';
import { SecondFactorService } from '../src/second-factor/second-factor.service.js';
import { totpCode } from './second-factor.behaviour.js';

/**
 * auth-svc's second factors on a fresh PostgreSQL database with its own
 * migrations, without Nest, a broker or a gateway: what must hold however
 * many requests arrive at once.
 */
describe('second factors on their own database', () => {
  let db: TestDatabase;
  let connection: Connection;
  let service: SecondFactorService;
  /** The recovery codes the first enrolment showed, in clear. */
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 10 });
    await applyMigrations(connection, AUTH_MIGRATIONS);
    await db.query("insert into auth.owner_credential (password_hash) values ('$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA')");
    // The credential service is only asked for the password, which these specs do not use.
    service = new SecondFactorService(new SecondFactorRepository(drizzleFor(connection)), undefined as unknown as OwnerCredentialService);
  });

  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  it('takes one code once, even when ten requests bring it at the same moment', async () => {
    const { id, secret } = await service.startTotp(undefined, 'agent');
    const enrolled = await service.confirmTotp(id, totpCode(secret));
    recoveryCodes = enrolled.recoveryCodes ?? [];
    expect(recoveryCodes).toHaveLength(10);
    const next = totpCode(secret, Date.now() + 30_000);
    const verdicts = await Promise.all(Array.from({ length: 10 }, () => service.judge({ code: next })));
    expect(verdicts.filter((v) => v === 'totp')).toHaveLength(1);
    expect(verdicts.filter((v) => v === undefined)).toHaveLength(9);
    expect(await db.query('select count(*)::int as c from auth.recovery_codes')).toEqual([{ c: 10 }]);
  });

  it('spends a recovery code once, even when five requests bring it at the same moment', async () => {
    const tablet = await service.startTotp('Tablet', 'agent');
    // Not the first factor any more: no new codes.
    expect((await service.confirmTotp(tablet.id, totpCode(tablet.secret))).recoveryCodes).toBeUndefined();
    const [code] = recoveryCodes;
    const verdicts = await Promise.all(Array.from({ length: 5 }, () => service.judge({ code })));
    expect(verdicts.filter((v) => v === 'recovery')).toHaveLength(1);
    expect((await service.overview()).recoveryCodesLeft).toBe(9);
  });

  it('is emptied by the operator reset: every factor, code and the passkey-only switch', async () => {
    await db.query('update auth.owner_credential set passkey_sign_in = true');
    expect(await resetSecondFactor(connection)).toBe(2);
    expect(
      await db.query(
        'select (select count(*) from auth.second_factors)::int as f, (select count(*) from auth.recovery_codes)::int as c, (select bool_or(passkey_sign_in) from auth.owner_credential) as p',
      ),
    ).toEqual([{ f: 0, c: 0, p: false }]);
    expect(await service.methods()).toEqual([]);
  });
});
