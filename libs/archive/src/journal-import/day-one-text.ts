/**
 * Day One's Markdown as the vault's: Day One backslash-escapes punctuation
 * the owner typed (`here we go\.`, `rabbit\-hole`, `\(aside\)`, `wow\!`).
 * An escape that keeps a character from being read as Markdown stays (a
 * line's leading `\#`, `\-`, `\+`, `\>` or `1\.`, any `\*`, `\_`, `` \` ``,
 * `\[`, `\]`, `\\`, a `\!` before `[`, a `\(` after `]`); every other one
 * goes, so the text reads and searches as it was typed and renders the same.
 * Code (fenced blocks and `inline` spans) is left as it is.
 */
export function unescapeDayOne(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return line;
      }
      if (fenced) return line;
      // Outside `code spans` only: the odd pieces of a split on backticks are inside one.
      return line
        .split('`')
        .map((piece, index, pieces) => (index % 2 === 1 && index < pieces.length - 1 ? piece : unescapeProse(piece, index === 0)))
        .join('`');
    })
    .join('\n');
}

function unescapeProse(piece: string, startsLine: boolean): string {
  return piece.replace(/\\([.!()\-+#{}>])/g, (escaped, char: string, at: number) => {
    const before = piece.slice(0, at);
    const after = piece.slice(at + 2);
    const atLineStart = startsLine && /^\s*$/.test(before);
    switch (char) {
      case '.':
        return startsLine && /^\s*\d+$/.test(before) ? escaped : char;
      case '-':
      case '+':
      case '#':
      case '>':
        return atLineStart ? escaped : char;
      case '!':
        return after.startsWith('[') ? escaped : char;
      case '(':
        return before.endsWith(']') ? escaped : char;
      default:
        return char;
    }
  });
}

/** A reference to a photo, video, audio recording or PDF of the entry: `![](dayone-moment://ID)`, `![](dayone-moment:/video/ID)`. */
export const MOMENT = /!\[[^\]\n]*\]\(dayone-moment:\/{1,2}(?:(video|audio|pdfAttachment)\/)?([A-Za-z0-9-]+)\)/g;

/** The kinds of media a Day One entry holds, by the JSON's key. */
export type MomentKind = 'photos' | 'videos' | 'audios' | 'pdfAttachments';

export const momentKind = (path: string | undefined): MomentKind =>
  path === 'video' ? 'videos' : path === 'audio' ? 'audios' : path === 'pdfAttachment' ? 'pdfAttachments' : 'photos';
