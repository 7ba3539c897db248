import { Injectable } from '@nestjs/common';
import type { SecondFactor } from '@vault/contracts';
import type { Database } from '@vault/persistence';
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { InjectAuthDb } from '../database.js';
import { ownerCredential } from '../schema/owner-credential.table.js';
import { recoveryCodes } from '../schema/recovery-codes.table.js';
import { secondFactors } from '../schema/second-factors.table.js';

export type FactorRow = typeof secondFactors.$inferSelect;

export function factorSummary(row: FactorRow): SecondFactor {
  return { id: row.id, kind: row.kind, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}

@Injectable()
export class SecondFactorRepository {
  constructor(@InjectAuthDb() private readonly db: Database) {}

  /** Confirmed factors only: an authenticator app whose first code never came does not count. */
  confirmed(): Promise<FactorRow[]> {
    return this.db.select().from(secondFactors).where(isNotNull(secondFactors.confirmedAt)).orderBy(asc(secondFactors.createdAt));
  }

  async find(id: string): Promise<FactorRow | undefined> {
    const [row] = await this.db.select().from(secondFactors).where(eq(secondFactors.id, id));
    return row;
  }

  async findPasskey(credentialId: string): Promise<FactorRow | undefined> {
    const [row] = await this.db
      .select()
      .from(secondFactors)
      .where(and(eq(secondFactors.credentialId, credentialId), isNotNull(secondFactors.confirmedAt)));
    return row;
  }

  /** An authenticator app waiting for its first code; an older unconfirmed one is dropped (one enrolment at a time). */
  async addUnconfirmedTotp(name: string, secret: string): Promise<FactorRow> {
    return this.db.transaction(async (tx) => {
      await tx.delete(secondFactors).where(isNull(secondFactors.confirmedAt));
      const [row] = await tx.insert(secondFactors).values({ kind: 'totp', name, totpSecret: secret }).returning();
      return row;
    });
  }

  async addPasskey(values: { name: string; credentialId: string; publicKey: string; signCount: number; transports: string[] }): Promise<FactorRow> {
    const [row] = await this.db
      .insert(secondFactors)
      .values({ kind: 'passkey', confirmedAt: sql`now()`, ...values })
      .returning();
    return row;
  }

  async confirm(id: string, step: number): Promise<FactorRow> {
    const [row] = await this.db
      .update(secondFactors)
      .set({ confirmedAt: sql`now()`, totpLastStep: step, lastUsedAt: sql`now()` })
      .where(eq(secondFactors.id, id))
      .returning();
    return row;
  }

  /**
   * Records a TOTP step as used, only if it is later than the last one: in
   * one statement, so two requests with the same code cannot both win.
   */
  async useTotpStep(id: string, step: number): Promise<boolean> {
    const rows = await this.db
      .update(secondFactors)
      .set({ totpLastStep: step, lastUsedAt: sql`now()` })
      .where(and(eq(secondFactors.id, id), sql`coalesce(${secondFactors.totpLastStep}, -1) < ${step}`))
      .returning({ id: secondFactors.id });
    return rows.length === 1;
  }

  async usePasskey(id: string, signCount: number): Promise<void> {
    await this.db.update(secondFactors).set({ signCount, lastUsedAt: sql`now()` }).where(eq(secondFactors.id, id));
  }

  async rename(id: string, name: string): Promise<FactorRow | undefined> {
    const [row] = await this.db
      .update(secondFactors)
      .set({ name })
      .where(and(eq(secondFactors.id, id), isNotNull(secondFactors.confirmedAt)))
      .returning();
    return row;
  }

  /** Removes one factor; the last one takes the recovery codes and the passkey-only switch with it. */
  async remove(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(secondFactors).where(eq(secondFactors.id, id));
      const [{ left }] = await tx.select({ left: sql<number>`count(*)::int` }).from(secondFactors).where(isNotNull(secondFactors.confirmedAt));
      if (left === 0) await clearSecondFactorData(tx as unknown as Database);
    });
  }

  async unusedRecoveryCodes(): Promise<Array<{ id: number; codeHash: string }>> {
    return this.db.select({ id: recoveryCodes.id, codeHash: recoveryCodes.codeHash }).from(recoveryCodes).where(isNull(recoveryCodes.usedAt));
  }

  async replaceRecoveryCodes(hashes: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(recoveryCodes);
      await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ codeHash })));
    });
  }

  /** Marks a recovery code used, once: false when a parallel request used it first. */
  async useRecoveryCode(id: number): Promise<boolean> {
    const rows = await this.db
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(recoveryCodes.id, id), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return rows.length === 1;
  }

  async passkeySignIn(): Promise<boolean> {
    const [row] = await this.db.select({ enabled: ownerCredential.passkeySignIn }).from(ownerCredential).where(eq(ownerCredential.id, 1));
    return row?.enabled ?? false;
  }

  async setPasskeySignIn(enabled: boolean): Promise<void> {
    await this.db.update(ownerCredential).set({ passkeySignIn: enabled }).where(eq(ownerCredential.id, 1));
  }
}

/**
 * Every factor, every recovery code and the passkey-only switch: after the
 * last factor is removed, at a self-destruct, and by the operator's
 * `reset-second-factor` (which has no Nest container).
 */
export async function clearSecondFactorData(db: Database): Promise<void> {
  await db.delete(secondFactors);
  await db.delete(recoveryCodes);
  await db.update(ownerCredential).set({ passkeySignIn: false });
}
