import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VAULT_SERVICES } from '@vault/contracts';
import { applyMigrations, openConnection, type Connection, type ServiceMigrations } from '../src/index.js';
import { assertBuilt, startChild, waitForOutput } from './children.js';

/**
 * Issue 14: a vault made before ADR 0009 kept its rows in PGlite files
 * (VAULT_DATA_DIR/pg). Its first start on the embedded PostgreSQL copies
 * every row, checks them, and keeps the PGlite folder as pg.pglite-backup;
 * cut short anywhere, it leaves pg as it was and does it again next time.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const SERVICES: ServiceMigrations[] = VAULT_SERVICES.map(({ name, schema }) => ({ schema, folder: join(root, 'libs', name, 'migrations') }));
const SCHEMAS = [...SERVICES.map((s) => s.schema), 'vault_migrations'];
const PLANNER_0002 = (
  JSON.parse(readFileSync(join(root, 'libs/planner/migrations/meta/_journal.json'), 'utf8')) as { entries: Array<{ when: number; tag: string }> }
).entries.find((e) => e.tag === '0002_seed_balance')!.when;

const wrappedKey = randomBytes(60);
const titleCiphertext = randomBytes(45);
const contentCiphertext = randomBytes(300);
const masterKey = `${randomBytes(32).toString('base64')}\n`;

/** Rows in every table of every service, written as the vault before ADR 0009 did: PGlite, the services' migrations. */
async function makePgliteVault(dataDir: string, options: { plannerUntil?: number } = {}): Promise<void> {
  const connection = await openConnection({ kind: 'pglite', dataDir: join(dataDir, 'pg') });
  if (connection.kind !== 'pglite') throw new Error('expected PGlite');
  try {
    for (const service of SERVICES) await applyMigrations(connection, service, service.schema === 'planner' ? { until: options.plannerUntil } : {});
    const db = connection.client;
    const at = '2026-03-04 05:06:07.123456+00';
    await db.query(`insert into auth.owner_credential (password_hash, updated_at) values ('$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', $1)`, [at]);
    await db.query('insert into auth.vault_state (destroyed, global_access, updated_at) values (false, true, $1)', [at]);
    await db.query("insert into auth.login_failures values ('10.0.0.7', 3, $1, null), ('::1', 5, $1, $1)", [at]);
    await db.query(
      "insert into auth.second_factors (kind, name, confirmed_at, totp_secret, totp_last_step) values ('totp', 'Phone ☎', $1, 'JBSWY3DPEHPK3PXP', 59000000)",
      [at],
    );
    await db.query(
      "insert into auth.second_factors (kind, name, confirmed_at, credential_id, public_key, sign_count, transports) values ('passkey', 'Key', $1, 'Y3JlZA', 'cHVi', 7, '[\"usb\",\"nfc\"]')",
      [at],
    );
    await db.query("insert into auth.recovery_codes (code_hash, used_at) values ('$argon2id$one', null), ('$argon2id$two', $1)", [at]);
    await db.query(
      "insert into planner.targets (title, description, completed, created_at, completed_at) values ('Cross the Alps ✓', null, true, $1, $1), ('Ünïcödé \"quoted\" \\ back', 'line one\nline two', false, $1, null)",
      [at],
    );
    await db.query("insert into planner.activities (title, description) values ('Reconnaissance', 'at dawn')");
    await db.query('update planner.balance set amount = $1', [options.plannerUntil ? '123456.789' : '123456.78']);
    const [template] = (
      await db.query<{ id: string }>("insert into planner.weekly_templates (title, time, day_of_week) values ('Drill', '07:30', 1) returning id")
    ).rows;
    await db.query(
      "insert into planner.schedule_items (date, time, title, template_id) values ('2026-03-02', '07:30', 'Drill', $1), ('2026-03-03', '09:00', 'One-off', null)",
      [template.id],
    );
    await db.query("insert into planner.studies (subject, end_goal, completed, completed_at) values ('Ballistics', 'Pass the exam', true, now())");
    await db.query('insert into journal.data_keys (wrapped_key) values ($1)', [wrappedKey]);
    await db.query('insert into journal.entries values (gen_random_uuid(), $1, $2, $3, $3), (gen_random_uuid(), null, $2, now(), now())', [
      titleCiphertext,
      contentCiphertext,
      at,
    ]);
    await db.query('insert into journal.entry_removals (id) values (gen_random_uuid())');
    await db.query("insert into media.photos (id, object_key, content_type, size) values (gen_random_uuid(), 'photos/abc', 'image/png', 67)");
    await db.query("insert into media.uploads (object_key, expires_at, uploaded_at) values ('uploads/xyz', now() + interval '5 minutes', null)");
    await db.query("insert into media.erasure_watch values ('uploads/', now() + interval '10 minutes')");
    for (let i = 0; i < 250; i++)
      await db.query("insert into audit.access_log values (gen_random_uuid(), '127.0.0.1', 'curl/8', 'login', $1, now() - $2 * interval '1 second')", [
        i % 3 === 0,
        i,
      ]);
  } finally {
    await connection.close();
  }
  // The journal's key file beside the data, as the embedded vault makes it.
  writeFileSync(join(dataDir, 'master.key'), masterKey, { mode: 0o600 });
}

/** Every row of every table of the vault's schemas, as text in byte order, per table; and the sequences' positions. */
async function everyRow(connection: Connection): Promise<Record<string, string[]>> {
  const query = async (text: string): Promise<Array<Record<string, unknown>>> =>
    connection.kind === 'pglite' ? (await connection.client.query<Record<string, unknown>>(text)).rows : (await connection.pool.query(text)).rows;
  await query("set timezone to 'UTC'");
  const relations = await query(
    `select n.nspname as s, c.relname as t, c.relkind as k from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'S') and n.nspname in (${SCHEMAS.map((s) => `'${s}'`).join(', ')}) order by 1, 2`,
  );
  const rows: Record<string, string[]> = {};
  for (const { s, t, k } of relations) {
    rows[`${s}.${t}`] =
      k === 'S'
        ? (await query(`select last_value::text || ' ' || is_called::text as r from "${s}"."${t}"`)).map((r) => String(r.r))
        : (await query(`select x::text as r from "${s}"."${t}" x order by x::text collate "C"`)).map((r) => String(r.r));
  }
  return rows;
}

/** Clusters being made (`postgres.new-<pid>`), complete or not. */
const partials = (dataDir: string) => readdirSync(dataDir).filter((name) => name.startsWith('postgres.new'));

async function rowsOfPglite(dir: string) {
  const connection = await openConnection({ kind: 'pglite', dataDir: dir });
  try {
    return await everyRow(connection);
  } finally {
    await connection.close();
  }
}

describe('importing a PGlite vault into the embedded PostgreSQL', () => {
  const work = mkdtempSync(join(tmpdir(), 'vault-pglite-import-'));
  const template = join(work, 'template');
  let before: Record<string, string[]>;

  beforeAll(async () => {
    await makePgliteVault(template);
    before = await rowsOfPglite(join(template, 'pg'));
  }, 120_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('copies every row of every service, the migrations bookkeeping and the sequences, identical; keeps pg as pg.pglite-backup', async () => {
    const dataDir = join(work, 'import');
    cpSync(template, dataDir, { recursive: true });
    const events: string[] = [];
    const connection = await openConnection({ kind: 'embedded', dataDir, pgliteImport: SERVICES, log: (m) => events.push(m) });
    try {
      if (connection.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const after = await everyRow(connection);
      // Every table of every service, with rows in each.
      expect(Object.keys(before).filter((t) => !t.endsWith('_seq'))).toEqual(
        expect.arrayContaining([
          'auth.owner_credential',
          'auth.vault_state',
          'auth.login_failures',
          'auth.second_factors',
          'auth.recovery_codes',
          'planner.targets',
          'planner.activities',
          'planner.balance',
          'planner.schedule_items',
          'planner.studies',
          'planner.weekly_templates',
          'journal.data_keys',
          'journal.entries',
          'media.photos',
          'media.uploads',
          'media.erasure_watch',
          'audit.access_log',
          'audit.erasure',
          'vault_migrations.auth',
          'vault_migrations.planner',
          'vault_migrations.journal',
          'vault_migrations.media',
          'vault_migrations.audit',
        ]),
      );
      for (const [table, rows] of Object.entries(before)) expect({ table, rows: rows.length > 0 }).toEqual({ table, rows: true });
      expect(after).toEqual(before);
      // Bytes and instants as node-postgres reads them: the ciphertext exact, the microseconds kept.
      const { rows: entries } = await connection.pool.query(
        "select title_ciphertext, content_ciphertext, to_char(created_at, 'US') as us from journal.entries where title_ciphertext is not null",
      );
      expect(entries).toEqual([{ title_ciphertext: titleCiphertext, content_ciphertext: contentCiphertext, us: '123456' }]);
      expect((await connection.pool.query('select wrapped_key from journal.data_keys')).rows[0].wrapped_key).toEqual(wrappedKey);
    } finally {
      await connection.close();
    }
    expect(events.join('\n')).toMatch(/Imported 2\d\d rows of 24 tables and \d sequences/);
    expect([existsSync(join(dataDir, 'pg')), existsSync(join(dataDir, 'pg.pglite-backup')), partials(dataDir)]).toEqual([false, true, []]);
    expect([readFileSync(join(dataDir, 'master.key'), 'utf8'), statSync(join(dataDir, 'master.key')).mode & 0o777]).toEqual([masterKey, 0o600]);
    // The backup is the PGlite database as it was.
    expect(await rowsOfPglite(join(dataDir, 'pg.pglite-backup'))).toEqual(before);

    // The next start is an ordinary one: nothing imported again.
    const again = await openConnection({ kind: 'embedded', dataDir, pgliteImport: SERVICES, log: (m) => events.push(`again: ${m}`) });
    expect(await everyRow(again)).toEqual(before);
    await again.close();
    expect(events.filter((e) => e.startsWith('again:'))).toEqual([]);
  }, 120_000);

  it("rebuilds an older vault at its own migration level; the service's start applies the rest", async () => {
    const dataDir = join(work, 'older');
    await makePgliteVault(dataDir, { plannerUntil: PLANNER_0002 });
    const connection = await openConnection({ kind: 'embedded', dataDir, pgliteImport: SERVICES });
    try {
      if (connection.kind !== 'postgres') throw new Error('expected PostgreSQL');
      // Imported as written: numeric without a scale, three decimals.
      expect((await connection.pool.query('select amount::text as a from planner.balance')).rows).toEqual([{ a: '123456.789' }]);
      await applyMigrations(connection, SERVICES[1]);
      expect((await connection.pool.query('select amount::text as a from planner.balance')).rows).toEqual([{ a: '123456.78' }]);
      expect((await connection.pool.query('select count(*)::int as c from vault_migrations.planner')).rows).toEqual([{ c: 4 }]);
    } finally {
      await connection.close();
    }
  }, 120_000);

  it('refuses a PGlite folder it was not given the migrations to import, and leaves it alone', async () => {
    const dataDir = join(work, 'refused');
    cpSync(template, dataDir, { recursive: true });
    await expect(openConnection({ kind: 'embedded', dataDir })).rejects.toThrow('that this program cannot import');
    expect([existsSync(join(dataDir, 'pg')), existsSync(join(dataDir, 'postgres'))]).toEqual([true, false]);
  });

  it('killed at any moment of the import, leaves pg as it was, and the next start imports it all', async () => {
    assertBuilt();
    const outcomes: string[] = [];
    // Timed from the moment the import begins (the child's first step), not from the child's start,
    // which a loaded machine delays by seconds: the kills then land inside the import on any machine.
    for (const offsetMs of [0, 150, 350, 600, 900, 1300, 2000]) {
      const dataDir = join(work, `killed-${offsetMs}`);
      cpSync(template, dataDir, { recursive: true });
      const child = startChild([dataDir, 'import', JSON.stringify(SERVICES)]);
      await waitForOutput(child, /^log: Importing the PGlite database/m);
      await new Promise((resolve) => setTimeout(resolve, offsetMs));
      child.process.kill('SIGKILL');
      await child.exited;
      const finished = /^ready$/m.test(child.output());
      const stage = existsSync(join(dataDir, 'pg'))
        ? partials(dataDir).length > 0
          ? 'partial'
          : existsSync(join(dataDir, 'postgres'))
            ? 'renamed'
            : 'not begun'
        : 'completed';
      outcomes.push(`${offsetMs} ms: ${finished ? 'finished' : stage}`);
      if (existsSync(join(dataDir, 'pg'))) expect({ offsetMs, rows: await rowsOfPglite(join(dataDir, 'pg')) }).toEqual({ offsetMs, rows: before });

      const connection = await openConnection({ kind: 'embedded', dataDir, pgliteImport: SERVICES });
      try {
        expect({ offsetMs, rows: await everyRow(connection) }).toEqual({ offsetMs, rows: before });
      } finally {
        await connection.close();
      }
      expect({ offsetMs, pg: existsSync(join(dataDir, 'pg')), backup: existsSync(join(dataDir, 'pg.pglite-backup')), partials: partials(dataDir) }).toEqual({
        offsetMs,
        pg: false,
        backup: true,
        partials: [],
      });
      rmSync(dataDir, { recursive: true, force: true });
    }
    process.stdout.write(`import kill trials:\n  ${outcomes.join('\n  ')}\n`);
    // The kills must land inside the import, not only before or after it.
    expect(outcomes.filter((o) => o.endsWith('partial')).length).toBeGreaterThanOrEqual(2);
  }, 300_000);
});
