import { Injectable } from '@nestjs/common';
import { ON_THIS_DAY_LINE_MAX, ON_THIS_DAY_MAX, type JournalEntry, type OnThisDayEntry } from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { DataKeyService } from '../crypto/data-key.service.js';
import { EntriesRepository } from './entries.repository.js';
import { type EntryText, openEntry, sealEntry, writtenEntry } from './entry-cipher.js';

/** The journal as the owner sees it: plaintext in, plaintext out, ciphertext at rest. */
@Injectable()
export class JournalService {
  constructor(
    private readonly entries: EntriesRepository,
    private readonly keys: DataKeyService,
  ) {}

  async list(page: { limit?: number; offset?: number }): Promise<JournalEntry[]> {
    const key = await this.keys.current();
    return (await this.entries.list(page)).map((row) => openEntry(key, row));
  }

  /** What was written on `date`'s month and day in earlier years, in the owner's time zone (see OnThisDay). */
  async onThisDay(date: string, timeZone: string): Promise<OnThisDayEntry[]> {
    const rows = await this.entries.writtenOn(monthDaysOf(date), date, timeZone, ON_THIS_DAY_MAX);
    if (rows.length === 0) return [];
    const key = await this.keys.current();
    return rows.map((row) => {
      const entry = openEntry(key, row);
      return {
        id: entry.id,
        ...(entry.title ? { title: entry.title } : {}),
        firstLine: firstLineOf(entry.content),
        year: row.year,
        createdAt: entry.createdAt,
      };
    });
  }

  count(): Promise<number> {
    return this.entries.count();
  }

  async create(text: EntryText): Promise<JournalEntry> {
    const key = await this.keys.current();
    const id = randomUUID();
    const now = new Date();
    // Created and updated are equal until an edit: the web shows "(Updated: ...)" only when they differ.
    const row = await this.entries.insert({ id, ...sealEntry(key, id, text), createdAt: now, updatedAt: now });
    return writtenEntry(row, text);
  }

  async update(id: string, text: EntryText): Promise<JournalEntry | undefined> {
    const key = await this.keys.current();
    const row = await this.entries.update(id, { ...sealEntry(key, id, text), updatedAt: new Date() });
    return row && writtenEntry(row, text);
  }

  remove(id: string): Promise<boolean> {
    return this.entries.remove(id);
  }
}

/** `MM-DD` of the date, and on 28 February of a year without a 29th, the 29th too: a leap day is remembered every year. */
export function monthDaysOf(date: string): string[] {
  const monthDay = date.slice(5);
  const year = Number(date.slice(0, 4));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return monthDay === '02-28' && !leap ? ['02-28', '02-29'] : [monthDay];
}

/** The first line with text on it, trimmed and shortened to ON_THIS_DAY_LINE_MAX characters (an ellipsis marks a cut). */
export function firstLineOf(content: string): string {
  const line =
    content
      .split(/\r?\n/)
      .find((candidate) => candidate.trim() !== '')
      ?.trim() ?? '';
  const characters = [...line];
  return characters.length <= ON_THIS_DAY_LINE_MAX ? line : `${characters.slice(0, ON_THIS_DAY_LINE_MAX - 1).join('')}…`;
}
