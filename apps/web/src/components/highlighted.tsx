import { matchedPieces } from '@vault/contracts';
import { Fragment } from 'react';

/** How a matching part looks, in a plain text and in an entry's Markdown alike. */
export const MATCH_CLASSES = ['rounded-sm', 'bg-hero-yellow', 'px-0.5', 'text-black'];

/**
 * `text` with the parts that match the search terms marked, as journal-svc
 * matched them (the same folding: case, accents, white space). Plain text
 * when there are no terms.
 */
export function Highlighted({ text, terms }: { text: string; terms: readonly string[] }) {
  if (terms.length === 0) return <>{text}</>;
  return (
    <>
      {matchedPieces(text, terms).map((piece) =>
        piece.matched ? (
          <mark key={piece.at} className={MATCH_CLASSES.join(' ')}>
            {piece.text}
          </mark>
        ) : (
          <Fragment key={piece.at}>{piece.text}</Fragment>
        ),
      )}
    </>
  );
}
