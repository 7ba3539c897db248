import { describe, expect, it } from '@jest/globals';
import { NoteImages } from './note-images.js';

const FILES = [
  'Export/Trip/Day 1.md',
  'Export/_resources/3b5f0c1e.png',
  'Export/_resources/map scan.jpg',
  'Export/attachments/sunset.webp',
  'Export/deep/attachments/sunset.webp',
  'Export/photo.HEIC',
  'Export/manual.pdf',
  'Other/outside.png',
];

describe("the images a folder's notes show", () => {
  it("turns Joplin's, Obsidian's and plain links to files of the zip into the photo vault's lines", () => {
    const images = new NoteImages('Export/', FILES);
    const { text, photos } = images.place(
      [
        'Joplin: ![](../_resources/3b5f0c1e.png)',
        'Encoded, titled: ![map](../_resources/map%20scan.jpg "the route")',
        'Angle brackets: ![map](<../_resources/map scan.jpg>)',
        'From the root: ![](/attachments/sunset.webp) and Obsidian: ![[sunset.webp|300]]',
      ].join('\n'),
      'Export/Trip/Day 1.md',
    );
    expect(text).toBe(
      [
        'Joplin: *[photo 1, in the photo vault]*',
        'Encoded, titled: *[photo 2, in the photo vault]*',
        'Angle brackets: *[photo 2, in the photo vault]*',
        // Obsidian's embed by name finds the shortest path of that name.
        'From the root: *[photo 3, in the photo vault]* and Obsidian: *[photo 3, in the photo vault]*',
      ].join('\n'),
    );
    expect(photos).toEqual([
      { file: 'Export/_resources/3b5f0c1e.png', contentType: 'image/png' },
      { file: 'Export/_resources/map scan.jpg', contentType: 'image/jpeg' },
      { file: 'Export/attachments/sunset.webp', contentType: 'image/webp' },
    ]);
    expect(['Export/_resources/3b5f0c1e.png', 'Export/deep/attachments/sunset.webp'].map((file) => images.isLinked(file))).toEqual([true, false]);
  });

  it('leaves as written a link to the web, to a file not in the zip or outside the notes, and to a file the vault does not keep', () => {
    const images = new NoteImages('Export/', FILES);
    const text = [
      '![](https://example.org/a.png)',
      '![](data:image/png;base64,iVBORw0KGgo=)',
      '![](missing.png)',
      '![](../../Other/outside.png)',
      '![](../../../../etc/passwd.png)',
      '![](../photo.HEIC)',
      '![[manual.pdf]]',
      '![](../_resources/%E0%A4%A.png)',
      `![${'['.repeat(5000)}](x.png)`,
    ].join('\n');
    expect(images.place(text, 'Export/Trip/Day 1.md')).toEqual({ text, photos: [] });
  });
});
