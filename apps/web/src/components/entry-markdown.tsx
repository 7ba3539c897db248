import { matchedPieces } from '@vault/contracts';
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';
import type { Html, Root as MdRoot } from 'mdast';
import Markdown, { type Components } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { MATCH_CLASSES } from './highlighted';

/**
 * An entry's text as Markdown (CommonMark with GitHub's tables, task lists,
 * strikethrough and autolinks), every line break kept, so an entry written
 * before Markdown reads as it did. Rendered to React elements, never to
 * HTML: raw HTML in an entry shows as the text it is, a link opens outside
 * the vault without telling the other site where it came from, and an image
 * shows as its description, so no request leaves the page (nor could under
 * the CSP). With search terms, the matching parts are marked.
 */
export function EntryMarkdown({ text, terms = [] }: { text: string; terms?: readonly string[] }) {
  return (
    <div className="entry-markdown break-words text-ink">
      <Markdown
        remarkPlugins={[remarkGfm, remarkBreaks, htmlAsText]}
        rehypePlugins={terms.length > 0 ? [[markTerms, terms]] : []}
        components={COMPONENTS}
        urlTransform={linkTarget}
      >
        {text}
      </Markdown>
    </div>
  );
}

/** Only links out of the page, or to write to someone; anything else (`javascript:`, a path of the vault) is no link. */
function linkTarget(url: string): string | null {
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol) ? url : null;
  } catch {
    return null;
  }
}

/** An entry's headings sit below the screen's and the entry title's, whatever level the owner wrote. */
const heading = (Tag: 'h4' | 'h5' | 'h6', className: string): Components['h1'] =>
  function EntryHeading({ children }) {
    return <Tag className={`comic-heading mt-3 ${className}`}>{children}</Tag>;
  };

const COMPONENTS: Components = {
  h1: heading('h4', 'text-xl'),
  h2: heading('h5', 'text-lg'),
  h3: heading('h6', 'text-base'),
  h4: heading('h6', 'text-base'),
  h5: heading('h6', 'text-base'),
  h6: heading('h6', 'text-base'),
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer" className="text-hero-cyan underline">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ alt }) => <span className="text-muted">[image{alt ? `: ${alt}` : ''}]</span>,
};

/** Raw HTML in Markdown becomes text: shown as typed, never parsed. */
function htmlAsText() {
  return (tree: MdRoot) => {
    const visit = (node: { children?: unknown[] }) => {
      if (!node.children) return;
      node.children = node.children.map((child) => {
        const html = child as Html;
        if (html.type === 'html') return { type: 'text', value: html.value, position: html.position };
        visit(child as { children?: unknown[] });
        return child;
      });
    };
    visit(tree);
  };
}

/** Wraps the parts of each text that match the search terms in <mark>, as the plain list does. */
function markTerms(terms: readonly string[]) {
  return (tree: Root) => {
    const visit = (node: Root | Element) => {
      node.children = node.children.flatMap((child: RootContent): RootContent[] => {
        if (child.type === 'element') visit(child);
        return child.type === 'text' ? marked(child, terms) : [child];
      }) as ElementContent[];
    };
    visit(tree);
  };
}

function marked(text: Text, terms: readonly string[]): ElementContent[] {
  const pieces = matchedPieces(text.value, terms);
  if (!pieces.some((piece) => piece.matched)) return [text];
  return pieces.map((piece) =>
    piece.matched
      ? { type: 'element', tagName: 'mark', properties: { className: MATCH_CLASSES }, children: [{ type: 'text', value: piece.text }] }
      : { type: 'text', value: piece.text },
  );
}
