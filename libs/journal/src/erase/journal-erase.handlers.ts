import { Controller } from '@nestjs/common';
import { EraseJournal, VaultDestroyed } from '@vault/contracts';
import type { Database } from '@vault/persistence';
import { Handles, OnEvent } from '@vault/transport';
import { DataKeyService } from '../crypto/data-key.service.js';
import { InjectJournalDb } from '../database.js';
import { entries, entryRemovals } from '../schema/entries.table.js';
import { JournalSearchService } from '../search/journal-search.service.js';

/**
 * Self-destruct: the entries, the search index's notes and the data key. Without the key row, even a
 * backup taken earlier cannot be decrypted (crypto-shredding).
 */
@Controller()
export class JournalEraseHandlers {
  constructor(
    @InjectJournalDb() private readonly db: Database,
    private readonly keys: DataKeyService,
    private readonly search: JournalSearchService,
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
    await this.db.delete(entryRemovals);
    // The decrypted text leaves this replica's memory now; the others' indexes see the empty table at their next look.
    this.search.forget();
    await this.keys.erase();
  }
}
