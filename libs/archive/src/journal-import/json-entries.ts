import { JSONParser, TokenType } from '@streamparser/json';
import type { ParsedTokenInfo } from '@streamparser/json';
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { ArchiveRefusal } from '../archive-refusal.js';

/**
 * The items of a JSON file's top-level `entries` list (a Day One journal),
 * one at a time as the file streams in: only the item being read is ever
 * held, never the file or the list, so a journal of thousands of entries
 * costs the memory of its longest entry. The bytes must be UTF-8 and the
 * file one JSON object with an `entries` list; anything else refuses the
 * import, naming the file.
 */
export async function* jsonEntries(bytes: Readable, file: string): AsyncGenerator<unknown> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parser = new JSONParser({ paths: ['$.entries.*'], keepStack: false });
  const shape = new TopLevelShape();
  let ready: unknown[] = [];
  let failure: Error | undefined;
  parser.onToken = (token) => shape.see(token);
  // An `entries` that is an object, not a list, is no journal: its members are not entries.
  parser.onValue = ({ value, parent }) => {
    if (Array.isArray(parent)) ready.push(value);
  };
  parser.onError = (error) => {
    failure ??= error;
  };
  const write = (text: string) => {
    if (text.length > 0 && !failure) parser.write(text);
    if (failure) throw new ArchiveRefusal(400, `${file} is not valid JSON (${failure.message.slice(0, 120)})`);
  };
  for await (const chunk of bytes) {
    write(utf8(decoder, chunk as Buffer, file));
    const items = ready;
    ready = [];
    yield* items;
  }
  write(utf8(decoder, undefined, file));
  if (!parser.isEnded) parser.end();
  write('');
  if (shape.isEmpty) throw new ArchiveRefusal(400, `${file} is not valid JSON (it holds no value)`);
  yield* ready;
  if (!shape.hasEntriesList) throw new ArchiveRefusal(400, `${file} is not a Day One journal (it has no "entries" list)`);
}

/** The next piece of the text, or the end of it (`bytes` undefined): bytes that are not UTF-8 refuse the file. */
function utf8(decoder: TextDecoder, bytes: Buffer | undefined, file: string): string {
  try {
    return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
  } catch {
    throw new ArchiveRefusal(400, `${file} is not UTF-8 text`);
  }
}

/**
 * Whether the document is an object whose `entries` is a list, told from
 * its tokens (the parser hands over the list's items, not the list): a key
 * at the top level is the string before a colon there, and its value's
 * first token says what it is.
 */
class TopLevelShape {
  hasEntriesList = false;
  isEmpty = true;
  private depth = 0;
  private rootIsObject = false;
  private lastString: string | undefined;
  private key: string | undefined;

  see({ token, value }: ParsedTokenInfo): void {
    this.isEmpty = false;
    if (this.depth === 1 && this.rootIsObject) this.atTopLevel(token, value);
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      if (this.depth === 0) this.rootIsObject = token === TokenType.LEFT_BRACE;
      this.depth += 1;
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) this.depth -= 1;
  }

  private atTopLevel(token: TokenType, value: unknown): void {
    if (token === TokenType.COLON) {
      this.key = this.lastString;
      return;
    }
    if (this.key !== undefined && token !== TokenType.COMMA) {
      // The value of `key` starts here. Of an `entries` given twice, the last decides, as JSON.parse keeps the last.
      if (this.key === 'entries') this.hasEntriesList = token === TokenType.LEFT_BRACKET;
      this.key = undefined;
    }
    this.lastString = token === TokenType.STRING ? String(value) : undefined;
  }
}
