// The baseline of `npm run bench`: a bare Fastify route reading the same rows
// from the same PostgreSQL with pg, with no session, no transport, no checks.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify();
/** @typedef {{ Body: { title: string, content?: string } }} Written */
app.get('/targets', async () => (await pool.query('select * from planner.targets order by created_at, id')).rows);
app.get('/journal', async () => (await pool.query('select * from journal.entries order by created_at desc, id desc')).rows);
app.post(
  '/targets',
  async (/** @type {import('fastify').FastifyRequest<Written>} */ request) =>
    (await pool.query('insert into planner.targets (title) values ($1) returning *', [request.body.title])).rows[0],
);
// The journal's first page, and one entry stored (its text as bytes, unencrypted: nothing around the query).
app.get('/journal/first-50', async () => (await pool.query('select * from journal.entries order by created_at desc, id desc limit 50')).rows);
app.post(
  '/journal',
  async (/** @type {import('fastify').FastifyRequest<Written>} */ request) =>
    (
      await pool.query(
        "insert into journal.entries (id, title_ciphertext, content_ciphertext, created_at, updated_at) values (gen_random_uuid(), convert_to($1, 'UTF8'), convert_to($2, 'UTF8'), now(), now()) returning id, created_at",
        [request.body.title, request.body.content],
      )
    ).rows[0],
);
// A trivial read: the one small row the owner's profile needs.
app.get('/user', async () => ({ ...(await pool.query('select id, updated_at from auth.owner_credential where id = 1')).rows[0], username: 'owner' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
