import { Controller } from '@nestjs/common';
import { AddForeignEntries, UndoForeignEntries, type RpcRequest } from '@vault/contracts';
import { Handles } from '@vault/transport';
import { DataKeyService } from '../crypto/data-key.service.js';
import { EntriesRepository } from '../entries/entries.repository.js';
import { sealEntry } from '../entries/entry-cipher.js';
import { foreignEntryId } from './foreign-entry-id.js';

/**
 * journal-svc's part of importing another app's journal: a page of entries
 * sealed under this vault's data key and added under ids derived from their
 * keys (an entry already there stays as it is), and the undo of an import
 * that failed part-way. Every replica's search index finds them through the
 * change feed, as any write.
 */
@Controller()
export class ForeignEntriesHandlers {
  constructor(
    private readonly entries: EntriesRepository,
    private readonly keys: DataKeyService,
  ) {}

  @Handles(AddForeignEntries)
  async add({ entries: page }: RpcRequest<typeof AddForeignEntries>) {
    if (page.length === 0) return { added: [] };
    const key = await this.keys.current();
    const byId = new Map<string, string>();
    const rows = [];
    for (const entry of page) {
      const id = foreignEntryId(key, entry.key);
      // The same key twice in a page: the first is the one added.
      if (byId.has(id)) continue;
      byId.set(id, entry.key);
      rows.push({
        id,
        ...sealEntry(key, id, { title: entry.title, content: entry.content }),
        createdAt: new Date(entry.createdAt),
        updatedAt: new Date(entry.updatedAt),
      });
    }
    const added = await this.entries.insertNew(rows);
    return { added: added.map((id) => ({ key: byId.get(id) as string, id })) };
  }

  /** As deleting each: the rows go and their ids are noted for every replica's search index, in one transaction. */
  @Handles(UndoForeignEntries)
  async undo({ ids }: RpcRequest<typeof UndoForeignEntries>) {
    return { removed: await this.entries.removeAll(ids) };
  }
}
