import { drizzleFor, type Connection } from '@vault/persistence';
import { and, eq } from 'drizzle-orm';
import { dataKeys } from '../schema/data-keys.table.js';
import { WRAP_CONTEXT } from './data-key.service.js';
import { open, seal } from './field-cipher.js';

export type RewrapOutcome = 'rewrapped' | 'already-rewrapped' | 'no-data-key';

/**
 * Rotates the master key: the data key is unwrapped with the current master
 * key and wrapped again with the next one. The entries stay as they are (they
 * are sealed with the data key, which does not change), so running services
 * keep working; each must be restarted with the next key before it restarts
 * for any other reason. Safe to run again: a row the next key already opens
 * is left alone.
 */
export async function rewrapDataKey(connection: Connection, current: Buffer, next: Buffer): Promise<RewrapOutcome> {
  const db = drizzleFor(connection);
  const [row] = await db.select().from(dataKeys).where(eq(dataKeys.id, 1));
  if (!row) return 'no-data-key';
  let dataKey: Buffer;
  try {
    dataKey = open(current, row.wrappedKey, WRAP_CONTEXT);
  } catch {
    if (opens(next, row.wrappedKey)) return 'already-rewrapped';
    throw new Error('Neither VAULT_MASTER_KEY nor VAULT_NEW_MASTER_KEY opens the journal data key: nothing changed.');
  }
  // Only the row just read: a data key made or erased meanwhile is not overwritten.
  const updated = await db
    .update(dataKeys)
    .set({ wrappedKey: seal(next, dataKey, WRAP_CONTEXT) })
    .where(and(eq(dataKeys.id, 1), eq(dataKeys.wrappedKey, row.wrappedKey)))
    .returning({ id: dataKeys.id });
  if (updated.length !== 1) throw new Error('The journal data key changed during the rotation: nothing changed; run it again.');
  return 'rewrapped';
}

function opens(key: Buffer, wrapped: Buffer): boolean {
  try {
    open(key, wrapped, WRAP_CONTEXT);
    return true;
  } catch {
    return false;
  }
}
