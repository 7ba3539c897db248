import type { JournalRecord, PhotoContentType } from '@vault/contracts';

/** The archive's fixed files. */
export const VAULT_JSON = 'vault.json';
export const MANIFEST_JSON = 'manifest.json';

const EXTENSIONS: Record<PhotoContentType, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

/** `photos/<id>.<ext>`: the id ties the file to its record in vault.json. */
export function photoPath(photo: { id: string; contentType: PhotoContentType }): string {
  return `photos/${photo.id}.${EXTENSIONS[photo.contentType]}`;
}

/** Every name an archive of this format may hold; anything else makes it foreign. */
export const ARCHIVE_NAME = /^(?:vault\.json|manifest\.json|journal\/\d{4}\/\d{2}\/[^/]{1,200}\.md|photos\/[0-9a-f-]{36}\.(?:jpg|png|gif|webp))$/u;

const SLUG_MAX = 60;

/** Letters and digits of any script, the rest folded into single dashes: a file name every system accepts. */
export function slugOf(text: string | null): string {
  const slug = (text ?? '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return [...slug].slice(0, SLUG_MAX).join('').replace(/-+$/, '') || 'entry';
}

/**
 * Names each journal entry `journal/YYYY/MM/<date>-<slug>.md` by its
 * creation day (UTC); a second entry of the same day and title gets `-2`,
 * and so on. Only the names are remembered, never the entries.
 */
export class JournalPaths {
  private readonly used = new Set<string>();

  next(entry: JournalRecord): string {
    const date = entry.createdAt.slice(0, 10);
    const base = `journal/${date.slice(0, 4)}/${date.slice(5, 7)}/${date}-${slugOf(entry.title)}`;
    let path = `${base}.md`;
    for (let n = 2; this.used.has(path); n++) path = `${base}-${n}.md`;
    this.used.add(path);
    return path;
  }
}

/**
 * An entry as a note any Markdown reader opens: YAML front matter (title and
 * dates), then the text as written. The title is written as a JSON string,
 * which YAML reads as the same double-quoted string whatever it holds
 * (quotes, colons, line breaks), without a YAML writer's cost per note.
 */
export function journalMarkdown(entry: JournalRecord): string {
  const title = entry.title ? `title: ${JSON.stringify(entry.title)}\n` : '';
  return `---\n${title}created: ${entry.createdAt}\nupdated: ${entry.updatedAt}\nid: ${entry.id}\n---\n\n${entry.content}${entry.content.endsWith('\n') ? '' : '\n'}`;
}
