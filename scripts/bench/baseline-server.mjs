// The baseline of `npm run bench`: a bare Fastify route reading the same rows
// from the same PostgreSQL with pg, with no session, no transport, no checks.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify();
app.get('/targets', async () => (await pool.query('select * from planner.targets order by created_at, id')).rows);
app.get('/journal', async () => (await pool.query('select * from journal.entries order by created_at desc, id desc')).rows);
app.post('/targets', async (request) => (await pool.query('insert into planner.targets (title) values ($1) returning *', [request.body.title])).rows[0]);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
