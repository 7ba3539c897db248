import { posix } from 'node:path';
import { type ForeignPhoto, photoPlaceholder, photoTypeOf } from './foreign-entry.js';

/**
 * An image a note shows: Markdown's `![alt](path "title")` or `![alt](<path>)`,
 * as Joplin (`../_resources/<id>.png`), Standard Notes and plain folders
 * write it, and Obsidian's embed `![[name.png]]` (`![[name.png|300]]`).
 * Every part is bounded: a note is at most a megabyte, and a link that runs
 * on is not one.
 */
const IMAGE_LINK =
  /!\[[^\]\n]{0,500}\]\([ \t]*(<[^>\n]{1,1000}>|[^)\s]{1,1000})(?:[ \t]+"[^"\n]{0,500}")?[ \t]*\)|!\[\[([^\]|\n]{1,1000})(?:\|[^\]\n]{0,100})?\]\]/g;
/** A link with a scheme (`https:`, `data:`, `file:`) names nothing in the zip. */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The photos of a folder of notes: the image files the vault keeps, by their paths in the zip. */
export class NoteImages {
  private readonly byName = new Map<string, string[]>();
  private readonly linked = new Set<string>();

  /** `folder`: where the notes are (the zip's common folder, or Vault's `journal/`); `files`: every path of the zip. */
  constructor(
    private readonly folder: string,
    files: Iterable<string>,
  ) {
    for (const file of files) {
      if (!file.startsWith(folder) || !photoTypeOf(file)) continue;
      const name = posix.basename(file).toLowerCase();
      this.byName.set(name, [...(this.byName.get(name) ?? []), file]);
    }
  }

  /** Whether a note has shown this file: a photo shown by none is left out with a reason. */
  isLinked(file: string): boolean {
    return this.linked.has(file);
  }

  /**
   * The note's text with each image it shows from the zip as the photo
   * vault's line, and those photos (an image shown twice is kept once). A
   * link to anything else (the web, a file not in the zip) stays as written.
   */
  place(text: string, notePath: string): { text: string; photos: ForeignPhoto[] } {
    const photos: ForeignPhoto[] = [];
    const placed = text.replace(IMAGE_LINK, (link: string, markdownTarget: string | undefined, embedName: string | undefined) => {
      const file = markdownTarget !== undefined ? this.resolve(markdownTarget, notePath) : this.embedded(embedName as string);
      const contentType = file ? photoTypeOf(file) : undefined;
      if (!file || !contentType) return link;
      this.linked.add(file);
      let index = photos.findIndex((photo) => photo.file === file);
      if (index < 0) index = photos.push({ file, contentType }) - 1;
      return photoPlaceholder(index + 1);
    });
    return { text: placed, photos };
  }

  /** A Markdown link's path: from the note's own folder, else from the notes' folder (Obsidian's "from the vault's root"). */
  private resolve(target: string, notePath: string): string | undefined {
    let path = target.startsWith('<') ? target.slice(1, -1) : target;
    if (SCHEME.test(path)) return undefined;
    path = path.replace(/[?#].*$/, '');
    try {
      path = decodeURIComponent(path);
    } catch {
      // A stray % in a file's name: the path as written.
    }
    const candidates = [posix.join(posix.dirname(notePath), path), posix.join(this.folder, path.replace(/^\/+/, ''))];
    return candidates.map((candidate) => posix.normalize(candidate)).find((candidate) => this.has(candidate));
  }

  /** Obsidian's embed names a file by its name alone, wherever it is: the shortest path of that name. */
  private embedded(name: string): string | undefined {
    const trimmed = name.trim();
    const exact = posix.normalize(posix.join(this.folder, trimmed));
    if (this.has(exact)) return exact;
    const found = this.byName.get(posix.basename(trimmed).toLowerCase());
    return found ? [...found].sort((a, b) => a.length - b.length || a.localeCompare(b))[0] : undefined;
  }

  private has(file: string): boolean {
    return this.byName.get(posix.basename(file).toLowerCase())?.includes(file) ?? false;
  }
}
