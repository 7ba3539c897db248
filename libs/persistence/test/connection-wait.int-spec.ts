import { describe, expect, it } from '@jest/globals';
import { testServers } from '@vault/testing';
import { openConnection } from '../src/index.js';

/**
 * A busy replica's requests queue for its pool. How long one waits for a
 * connection is the service's to set (start-service.ts: as long as the
 * gateway waits for its answer): a busy node then answers late instead of 503.
 */
describe("a query waiting for the pool's connection", () => {
  const holdTheOnlyConnection = async (connectionWaitMs?: number) => {
    const connection = await openConnection({ kind: 'postgres', url: testServers().databaseUrl, poolSize: 1, connectionWaitMs });
    if (connection.kind !== 'postgres') throw new Error('a postgres pool was asked for');
    const busy = connection.pool.query('select pg_sleep(2.6)');
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { connection, busy, waiting: connection.pool.query('select 1 as one') };
  };

  it('fails as an outage after 2 s by default: a dead server surfaces promptly', async () => {
    const { connection, busy, waiting } = await holdTheOnlyConnection();
    try {
      await expect(waiting).rejects.toThrow(/timeout exceeded when trying to connect/);
      await busy;
    } finally {
      await connection.close();
    }
  });

  it('waits as long as it is told, and gets the connection once it is free', async () => {
    const { connection, busy, waiting } = await holdTheOnlyConnection(5000);
    try {
      await expect(waiting).resolves.toMatchObject({ rows: [{ one: 1 }] });
      await busy;
    } finally {
      await connection.close();
    }
  });
});
