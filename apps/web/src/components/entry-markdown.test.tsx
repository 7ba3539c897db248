// A journal entry's Markdown: formatted, line breaks kept, and nothing in it can run, load or leave.
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { searchTerms } from '@vault/contracts';
import { EntryMarkdown } from './entry-markdown';

const HOSTILE = [
  '<script>window.pwned = 1</script>',
  '<img src="http://attacker.example/pixel.png" onerror="window.pwned = 2">',
  '[click](javascript:window.pwned=3) [data](data:text/html;base64,PHNjcmlwdD4=) [vault](/api/settings/self-destruct)',
  '![tracker](https://attacker.example/t.gif) ![local](/objects/photos/x)',
  '<a href="https://attacker.example" onclick="window.pwned = 4">raw link</a>',
  '<iframe src="https://attacker.example"></iframe><style>body{display:none}</style>',
  '&lt;b&gt; &amp; &#x3C;script&#x3E;',
  '<div onmouseover="alert(1)">hover</div>',
  `${Array.from({ length: 60 }, (_, depth) => `${'  '.repeat(depth)}- level ${depth}`).join('\n')}`,
].join('\n\n');

describe('EntryMarkdown', () => {
  it('formats headings, emphasis, lists, task lists, links, code and quotes', () => {
    const { container } = render(
      <EntryMarkdown
        text={
          '# Mission\n**bold** _soft_ ~~gone~~\n\n- one\n- [x] done\n- [ ] open\n\n1. first\n\n> quoted\n\n`inline`\n\n```\nblock\n```\n\nSee https://example.org'
        }
      />,
    );
    expect(container.querySelector('h4')?.textContent).toBe('Mission');
    expect(container.querySelector('h1, h2, h3')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('em')?.textContent).toBe('soft');
    expect(container.querySelector('del')?.textContent).toBe('gone');
    expect([...container.querySelectorAll('input[type=checkbox]')].map((box) => (box as HTMLInputElement).checked)).toEqual([true, false]);
    expect(container.querySelector('ol li')?.textContent).toBe('first');
    expect(container.querySelector('blockquote')?.textContent?.trim()).toBe('quoted');
    expect(container.querySelector('pre code')?.textContent).toBe('block\n');
    const link = container.querySelector('a')!;
    expect([link.getAttribute('href'), link.getAttribute('rel'), link.getAttribute('target')]).toEqual([
      'https://example.org',
      'noopener noreferrer',
      '_blank',
    ]);
  });

  it('keeps every line break of an entry written before Markdown', () => {
    const { container } = render(<EntryMarkdown text={'line one\nline two\nline three'} />);
    expect(container.querySelectorAll('br')).toHaveLength(2);
    expect(container.textContent).toBe('line one\nline two\nline three');
  });

  it('renders a hostile entry with no script, handler, frame, style, image or link but to http(s)', () => {
    const { container } = render(<EntryMarkdown text={HOSTILE} />);
    expect(container.querySelector('script, iframe, style, img, object, embed')).toBeNull();
    const handlers = [...container.querySelectorAll('*')].flatMap((element) => element.getAttributeNames().filter((name) => name.startsWith('on')));
    expect(handlers).toEqual([]);
    expect([...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([]);
    // Raw HTML shows as the text it is; entities as the characters they stand for.
    expect(container.textContent).toContain('<script>window.pwned = 1</script>');
    expect(container.textContent).toContain('<b> & <script>');
    expect(container.textContent).toContain('[image: tracker]');
    expect(container.querySelectorAll('li')).toHaveLength(60);
    expect((window as { pwned?: number }).pwned).toBeUndefined();
  });

  it('marks the matching parts of the text, across its formatting', () => {
    const { container } = render(<EntryMarkdown text={'The **Café** by the red door\n\n- café again'} terms={searchTerms('cafe "red door"')} />);
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Café', 'red door', 'café']);
  });
});
