import { matchRanges } from '@vault/contracts';
import { Fragment, type ReactNode } from 'react';

/**
 * `text` with the parts that match the search terms marked, as journal-svc
 * matched them (the same folding: case, accents, white space). Plain text
 * when there are no terms.
 */
export function Highlighted({ text, terms }: { text: string; terms: readonly string[] }) {
  if (terms.length === 0) return <>{text}</>;
  const pieces: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of matchRanges(text, terms)) {
    if (start > at) pieces.push(<Fragment key={`t${at}`}>{text.slice(at, start)}</Fragment>);
    pieces.push(
      <mark key={`m${start}`} className="rounded-sm bg-hero-yellow px-0.5 text-black">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) pieces.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return <>{pieces}</>;
}
