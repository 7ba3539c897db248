import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { testServers } from './servers.js';

export interface TestRedis {
  /** The server's URL with this spec file's logical database (redis://host:port/N). */
  url: string;
  /** Empties that database and gives it back. */
  drop(): Promise<void>;
}

const CLAIM = 'vault:it:claimed-by';
/** Databases 1..15 of the default 16; 0 is left to whatever else uses the server. */
const DATABASES = 15;

/**
 * A Redis logical database per spec file, as createTestDatabase gives a
 * PostgreSQL database: the gateway's sessions of one spec are never seen (or
 * erased by a self-destruct) in another running beside it. A database is
 * claimed only while it holds no key but the claim, so the keys of anyone
 * else on a shared server are never touched.
 */
export async function createTestRedis(): Promise<TestRedis> {
  const base = testServers().redisUrl;
  const me = randomBytes(6).toString('hex');
  const start = Math.floor(Math.random() * DATABASES);
  for (let i = 0; i < DATABASES; i++) {
    const db = ((start + i) % DATABASES) + 1;
    const client = new Redis(base, { db, lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    try {
      const claimed = await client.set(CLAIM, me, 'EX', 3600, 'NX');
      if (claimed === 'OK' && (await client.dbsize()) === 1) {
        const url = new URL(base);
        url.pathname = `/${db}`;
        return {
          url: url.toString(),
          drop: async () => {
            const admin = new Redis(base, { db, lazyConnect: true });
            await admin.connect();
            try {
              if ((await admin.get(CLAIM)) === me) await admin.flushdb();
            } finally {
              admin.disconnect();
            }
          },
        };
      }
      if (claimed === 'OK') await client.del(CLAIM);
    } finally {
      client.disconnect();
    }
  }
  throw new Error(`No empty Redis database (1..${DATABASES}) at ${base} for this spec file`);
}
