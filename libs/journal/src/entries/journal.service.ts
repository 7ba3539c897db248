import { Injectable } from '@nestjs/common';
import type { JournalEntry } from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { DataKeyService } from '../crypto/data-key.service.js';
import { openText, seal } from '../crypto/field-cipher.js';
import type { EntryRow } from '../schema/entries.table.js';
import { EntriesRepository } from './entries.repository.js';

interface EntryText {
  title?: string;
  content: string;
}

/** The journal as the owner sees it: plaintext in, plaintext out, ciphertext at rest. */
@Injectable()
export class JournalService {
  constructor(
    private readonly entries: EntriesRepository,
    private readonly keys: DataKeyService,
  ) {}

  async list(page: { limit?: number; offset?: number }): Promise<JournalEntry[]> {
    const key = await this.keys.current();
    return (await this.entries.list(page)).map((row) => decrypt(key, row));
  }

  count(): Promise<number> {
    return this.entries.count();
  }

  async create(text: EntryText): Promise<JournalEntry> {
    const key = await this.keys.current();
    const id = randomUUID();
    const now = new Date();
    // Created and updated are equal until an edit: the web shows "(Updated: ...)" only when they differ.
    const row = await this.entries.insert({ id, ...encrypt(key, id, text), createdAt: now, updatedAt: now });
    return decrypt(key, row);
  }

  async update(id: string, text: EntryText): Promise<JournalEntry | undefined> {
    const key = await this.keys.current();
    const row = await this.entries.update(id, { ...encrypt(key, id, text), updatedAt: new Date() });
    return row && decrypt(key, row);
  }

  remove(id: string): Promise<boolean> {
    return this.entries.remove(id);
  }
}

function encrypt(key: Buffer, id: string, text: EntryText) {
  return {
    titleCiphertext: text.title ? seal(key, text.title, `${id}:title`) : null,
    contentCiphertext: seal(key, text.content, `${id}:content`),
  };
}

function decrypt(key: Buffer, row: EntryRow): JournalEntry {
  return {
    id: row.id,
    ...(row.titleCiphertext ? { title: openText(key, row.titleCiphertext, `${row.id}:title`) } : {}),
    content: openText(key, row.contentCiphertext, `${row.id}:content`),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
