import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Database } from '@vault/persistence';
import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { InjectJournalDb } from '../database.js';
import { dataKeys } from '../schema/data-keys.table.js';
import { KEY_BYTES, open, seal } from './field-cipher.js';
import type { MasterKeySource } from './master-key-source.js';

export const MASTER_KEY = Symbol('MASTER_KEY');
export const WRAP_CONTEXT = 'vault:journal:data-key';

/**
 * Holds the journal's data key in memory. It is created when first needed,
 * stored only wrapped by the master key, and unwrapped at every start; a
 * wrong master key stops the service instead of serving unreadable entries.
 */
@Injectable()
export class DataKeyService implements OnModuleInit {
  private key?: Buffer;

  constructor(
    @InjectJournalDb() private readonly db: Database,
    @Inject(MASTER_KEY) private readonly masterKey: MasterKeySource,
  ) {}

  /** Only an existing key is opened here: a new or erased vault makes none (and no key file) until an entry needs it. */
  async onModuleInit() {
    const [row] = await this.db.select({ id: dataKeys.id }).from(dataKeys).where(eq(dataKeys.id, 1));
    if (row) await this.load();
  }

  /** The data key; after an erase, a new one is made on demand. */
  async current(): Promise<Buffer> {
    return this.key ?? (await this.load());
  }

  /**
   * Forgets the data key here and in the database, then the master key where
   * the vault owns it (crypto-shredding on self-destruct). In that order, so a
   * crash between the two never leaves a wrapped key without its master key
   * for the next start to trip over; a repeat finishes the job.
   */
  async erase(): Promise<void> {
    this.key = undefined;
    await this.db.delete(dataKeys);
    this.masterKey.erase();
  }

  private async load(): Promise<Buffer> {
    const masterKey = this.masterKey.read();
    // Replicas starting together race to create the key; the first insert wins and all read it back.
    await this.db
      .insert(dataKeys)
      .values({ id: 1, wrappedKey: seal(masterKey, randomBytes(KEY_BYTES), WRAP_CONTEXT) })
      .onConflictDoNothing({ target: dataKeys.id });
    const [row] = await this.db.select().from(dataKeys).where(eq(dataKeys.id, 1));
    try {
      this.key = open(masterKey, row.wrappedKey, WRAP_CONTEXT);
    } catch {
      throw new Error('The master key does not open the journal data key: check VAULT_MASTER_KEY (or the key file beside the data).');
    }
    return this.key;
  }
}
