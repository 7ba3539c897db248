import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { parseForeignDate } from './foreign-date.js';
import { ArchiveRefusal } from '../archive-refusal.js';
import type { ForeignEntry } from './foreign-entry.js';
import type { NoteImages } from './note-images.js';

/** Front matter: a first line `---`, YAML, then a line `---` (or `...`), as Obsidian, Joplin and Vault's own export write it. */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
/** An id of Vault's own export (`id:` in its front matter). */
const VAULT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One Markdown or text file of a folder export. */
export interface NoteFile {
  /** Its path in the archive. */
  path: string;
  bytes: Buffer;
  /** The file's time in the archive: the entry's times when the note names none. */
  modifiedAt: Date;
}

/**
 * A note as a journal entry: YAML front matter `title`, `created` (or
 * `date`), `updated` (or `modified`) and `tags` when present, the rest as
 * the text. A note without front matter is titled by its file name, as
 * Obsidian and Standard Notes name notes; its times are the file's. Tags
 * become the text's last line (`Tags: travel, family`): the vault has no
 * tags of its own. A note of Vault's own export keeps its id as its key, so
 * importing an export into the vault it came from adds nothing; any other
 * note is keyed by its bytes' SHA-256. The images it shows from the zip
 * (`images`) become its photos, each link the photo vault's line.
 */
export function noteEntry(file: NoteFile, images?: NoteImages): ForeignEntry {
  const text = decodeUtf8(file);
  const matter = FRONT_MATTER.exec(text);
  const fields = matter ? frontMatter(file.path, matter[1]) : {};
  let body = matter ? text.slice(matter[0].length) : text;
  // Vault's export puts one blank line after the front matter and ends the text with one line break.
  if (matter) body = body.replace(/^\r?\n/, '');
  body = body.replace(/\r?\n$/, '');
  const shown = images?.place(body, file.path) ?? { text: body, photos: [] };
  body = shown.text;
  const tags = tagsOf(file.path, fields.tags);
  if (tags.length > 0) body = `${body}${body ? '\n\n' : ''}Tags: ${tags.join(', ')}`;
  const created = dateField(file.path, fields, ['created', 'date', 'created_at', 'creation_date']);
  const updated = dateField(file.path, fields, ['updated', 'modified', 'updated_at', 'modification_date']);
  const title = matter ? textField(fields.title) : fileTitle(file.path);
  const id = textField(fields.id);
  return {
    key: id && VAULT_ID.test(id) ? `vault:${id.toLowerCase()}` : `file:${createHash('sha256').update(file.bytes).digest('hex')}`,
    source: file.path,
    title,
    content: body,
    createdAt: created ?? updated ?? file.modifiedAt,
    updatedAt: updated ?? created ?? file.modifiedAt,
    photos: shown.photos,
  };
}

function decodeUtf8(file: NoteFile): string {
  try {
    // fatal: a byte that is not UTF-8 refuses the import instead of becoming U+FFFD in the owner's text.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(file.bytes);
  } catch {
    throw new ArchiveRefusal(400, `${file.path} is not UTF-8 text`);
  }
}

function frontMatter(path: string, yaml: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    // The core schema: dates stay strings (read below), no custom tags; aliases bounded (a "billion laughs" file).
    parsed = parseYaml(yaml, { schema: 'core', maxAliasCount: 50, uniqueKeys: false });
  } catch (error) {
    throw new ArchiveRefusal(400, `${path}: its front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ArchiveRefusal(400, `${path}: its front matter is not a set of fields`);
  return parsed as Record<string, unknown>;
}

function textField(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function dateField(path: string, fields: Record<string, unknown>, names: string[]): Date | undefined {
  for (const name of names) {
    const value = fields[name];
    if (value === undefined || value === null || value === '') continue;
    const date = parseForeignDate(typeof value === 'number' ? new Date(value) : value);
    if (!date) throw new ArchiveRefusal(400, `${path}: ${name} is not a date (${String(value).slice(0, 40)})`);
    return date;
  }
  return undefined;
}

function tagsOf(path: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,\s]+/) : [value];
  const tags = list.map((tag) => (typeof tag === 'string' || typeof tag === 'number' ? String(tag).trim().replace(/^#/, '') : undefined));
  if (tags.some((tag) => tag === undefined)) throw new ArchiveRefusal(400, `${path}: tags must be words or a list of them`);
  return [...new Set(tags as string[])].filter(Boolean);
}

/** `notes/2024/Road trip.md` → `Road trip`. */
function fileTitle(path: string): string | undefined {
  return (
    path
      .split('/')
      .pop()
      ?.replace(/\.(md|markdown|txt)$/i, '')
      .trim() || undefined
  );
}
