import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RpcReply } from '@vault/contracts';
import { applyMigrations, drizzleFor, openConnection, type Connection } from '@vault/persistence';
import { createTestDatabase, type TestDatabase } from '@vault/testing';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BalanceHandlers } from '../src/balance/balance.handlers.js';
import { BalanceRepository } from '../src/balance/balance.repository.js';
import { PLANNER_MIGRATIONS } from '../src/database.js';

/**
 * The balance is exact (issue 13, finding 10): every subtraction is checked
 * against a model kept in integer cents (BigInt), on PostgreSQL and on PGlite,
 * through the handlers the gateway reaches (the contract's parsing included).
 */

type Backend = { name: string; open(): Promise<{ connection: Connection; query(sql: string): Promise<Record<string, unknown>[]>; close(): Promise<void> }> };

const postgres: Backend = {
  name: 'PostgreSQL',
  open: async () => {
    const db: TestDatabase = await createTestDatabase();
    const connection = await openConnection({ kind: 'postgres', url: db.url, poolSize: 10 });
    return {
      connection,
      query: (sql) => db.query(sql),
      close: async () => {
        await connection.close();
        await db.drop();
      },
    };
  },
};

const pglite: Backend = {
  name: 'PGlite',
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-balance-'));
    const connection = await openConnection({ kind: 'pglite', dataDir: join(dir, 'db') });
    if (connection.kind !== 'pglite') throw new Error('unreachable');
    const client = connection.client;
    return {
      connection,
      query: async (sql) => (await client.query<Record<string, unknown>>(sql)).rows,
      close: async () => {
        await connection.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** "123.45" for 12345n: how a decimal is written, exactly. */
const decimal = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
/** A 2-decimal number's cents (the balance answered is one). */
const centsOf = (amount: number) => BigInt(Math.round(amount * 100));

/** A seeded generator, so a failing run can be repeated (the seed is in the test name). */
function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The migrations folder as it was up to (and with) `tag`, to build a database of an older version. */
function migrationsUpTo(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'vault-planner-migrations-'));
  cpSync(PLANNER_MIGRATIONS.folder, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ idx: number; tag: string }> };
  const last = journal.entries.findIndex((entry) => entry.tag === tag);
  if (last < 0) throw new Error(`no migration ${tag}`);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
  return dir;
}

const SEED = 20261123;

for (const backend of [postgres, pglite]) {
  describe(`the balance on ${backend.name}`, () => {
    let store: Awaited<ReturnType<Backend['open']>>;
    let handlers: BalanceHandlers;
    // The decorated handler takes the envelope the transport delivers and answers an RpcReply.
    const subtract = (amount: unknown) =>
      (handlers.subtract as unknown as (e: unknown) => Promise<RpcReply<{ amount: number }>>)({ data: { amount }, meta: {} });
    const read = async () =>
      ((await (handlers.read as unknown as (e: unknown) => Promise<RpcReply<{ amount: number }>>)({ data: {}, meta: {} })) as { data: { amount: number } }).data
        .amount;

    beforeAll(async () => {
      store = await backend.open();
      await applyMigrations(store.connection, PLANNER_MIGRATIONS);
      handlers = new BalanceHandlers(new BalanceRepository(drizzleFor(store.connection)));
    });

    afterAll(async () => {
      await store?.close();
    });

    it('is stored as an exact decimal of 2 places', async () => {
      const [column] = await store.query(
        "select data_type, numeric_precision, numeric_scale from information_schema.columns where table_schema = 'planner' and table_name = 'balance' and column_name = 'amount'",
      );
      expect(column).toEqual({ data_type: 'numeric', numeric_precision: 12, numeric_scale: 2 });
    });

    if (backend === postgres) {
      it('stays race-free: 200 concurrent subtractions of 1 leave exactly 999,999,800', async () => {
        const replies = await Promise.all(Array.from({ length: 200 }, () => subtract(1)));
        expect(replies.every((reply) => reply.ok)).toBe(true);
        expect(await read()).toBe(999_999_800);
      });
    }

    it(`is exact after 10,000 random subtractions of decimal amounts (seed ${SEED})`, async () => {
      const random = mulberry32(SEED);
      let model = centsOf(await read());
      for (let i = 0; i < 10_000; i++) {
        // Half small amounts (0.01 to 9.99), half large ones (up to 99,999.99): every cent digit appears.
        const cents = BigInt(1 + Math.floor(random() * (i % 2 === 0 ? 999 : 9_999_999)));
        // The amount as a browser sends it: JSON text with 2 decimals, parsed to a number.
        const amount = JSON.parse(decimal(cents)) as number;
        const reply = await subtract(amount);
        model -= cents;
        if (!reply.ok) throw new Error(`subtraction ${i} of ${decimal(cents)} refused: ${reply.error.message}`);
        // The answer is the model's decimal, to the cent: its JSON text is exactly that decimal.
        if (JSON.stringify(reply.data.amount) !== JSON.stringify(Number(decimal(model)))) {
          throw new Error(`after subtraction ${i} of ${decimal(cents)}: answered ${reply.data.amount}, expected ${decimal(model)}`);
        }
      }
      const [row] = await store.query('select amount::text as amount from planner.balance');
      expect(row.amount).toBe(decimal(model));
      expect(await read()).toBe(Number(decimal(model)));
    }, 300_000);

    it('refuses an amount it cannot represent with a clear 400, changing nothing: 0.5 then 1e-7', async () => {
      const before = centsOf(await read());
      const half = await subtract(0.5);
      expect(half).toEqual({ ok: true, data: { amount: Number(decimal(before - 50n)) } });
      const tiny = await subtract(1e-7);
      expect(tiny).toEqual({ ok: false, error: { status: 400, message: 'amount: must have at most 2 decimal places' } });
      expect(await read()).toBe(Number(decimal(before - 50n)));
    });

    it('refuses every other amount it cannot take, with the same answers as before for the old ones', async () => {
      const before = await read();
      const oneCentMore = Number(decimal(centsOf(before) + 1n));
      const refusals: Array<[unknown, number, RegExp]> = [
        [0.001, 400, /^amount: must have at most 2 decimal places$/],
        [10.125, 400, /^amount: must have at most 2 decimal places$/],
        [0.1 + 0.2, 400, /^amount: must have at most 2 decimal places$/], // 0.30000000000000004
        [0, 400, /^amount: must be above 0$/],
        [-5, 400, /^amount: must be above 0$/],
        ['abc', 400, /^amount: must be a number$/],
        [undefined, 400, /^amount: must be a number$/],
        [oneCentMore, 422, /^amount: must not exceed the balance/],
        [1e21, 422, /^amount: must not exceed the balance/],
      ];
      for (const [amount, status, message] of refusals) {
        const reply = await subtract(amount);
        expect(reply.ok ? ['accepted', amount] : [reply.error.status, reply.error.message]).toEqual([status, expect.stringMatching(message)]);
      }
      expect(await read()).toBe(before);
      // The whole balance, to the cent, is still an amount it can take.
      expect(await subtract(before)).toEqual({ ok: true, data: { amount: 0 } });
      expect(await subtract(0.01)).toMatchObject({ ok: false, error: { status: 422 } });
    });
  });

  describe(`the balance of an older version on ${backend.name}`, () => {
    const cases: Array<[string, string, string]> = [
      // Sub-cent digits only the old float bug could make: cut to the cent, downwards (the balance never goes up).
      ['999979898.4999999', '999979898.49', 'cut down to the cent'],
      ['999999999.75', '999999999.75', 'kept exactly'],
      ['1000000000', '1000000000.00', 'kept exactly'],
    ];
    for (const [old, converted, what] of backend === pglite ? cases.slice(0, 1) : cases) {
      it(`converts ${old} losslessly to cents: ${converted} (${what})`, async () => {
        const store = await backend.open();
        const older = migrationsUpTo('0002_seed_balance');
        try {
          await applyMigrations(store.connection, { schema: 'planner', folder: older });
          await store.query(`update planner.balance set amount = '${old}'`);
          await applyMigrations(store.connection, PLANNER_MIGRATIONS);
          const [row] = await store.query('select amount::text as amount from planner.balance');
          expect(row.amount).toBe(converted);
          const repository = new BalanceRepository(drizzleFor(store.connection));
          expect(await repository.read()).toBe(Number(converted));
        } finally {
          rmSync(older, { recursive: true, force: true });
          await store.close();
        }
      });
    }
  });
}
