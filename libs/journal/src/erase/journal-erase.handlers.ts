import { Controller } from '@nestjs/common';
import { EraseJournal, VaultDestroyed } from '@vault/contracts';
import type { Database } from '@vault/persistence';
import { Handles, OnEvent } from '@vault/transport';
import { DataKeyService } from '../crypto/data-key.service.js';
import { InjectJournalDb } from '../database.js';
import { entries } from '../schema/entries.table.js';

/**
 * Self-destruct: the entries and the data key. Without the key row, even a
 * backup taken earlier cannot be decrypted (crypto-shredding).
 */
@Controller()
export class JournalEraseHandlers {
  constructor(
    @InjectJournalDb() private readonly db: Database,
    private readonly keys: DataKeyService,
  ) {}

  @Handles(EraseJournal)
  async erase() {
    await this.eraseAll();
    return { service: 'journal', erased: true as const };
  }

  @OnEvent(VaultDestroyed)
  async onDestroyed() {
    await this.eraseAll();
  }

  private async eraseAll() {
    await this.db.delete(entries);
    await this.keys.erase();
  }
}
