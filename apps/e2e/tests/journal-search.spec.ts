// Issue 34: the journal's search, its Markdown and its look back ("on this day"), in both modes.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, panel, signInByApi, test } from '../support/fixtures.ts';

/** A word only this test run writes: letters and digits, so it is one search word. */
function tagOf(project: string): string {
  return `${project}${randomBytes(4).toString('hex')}`;
}

async function writeEntry(page: Page, body: { title?: string; content: string }): Promise<void> {
  const created = await page.request.post('/api/journal', { data: body });
  expect(created.status(), 'POST /api/journal').toBe(201);
}

async function searchFor(page: Page, query: string): Promise<void> {
  const field = page.getByRole('searchbox', { name: 'Search intelligence logs' });
  await field.fill(query);
  await field.press('Enter');
}

test.describe('journal: search, Markdown, on this day', () => {
  test('search finds an entry by a word and by a phrase, the matches marked, and the cross shows every entry again', async ({
    page,
    owner,
    snapshot,
  }, testInfo) => {
    const tag = tagOf(testInfo.project.name);
    await signInByApi(page, owner, '/journal');
    await writeEntry(page, { title: `Opération Nuit ${tag}`, content: 'Rendez-vous au **Café** près de la porte rouge.' });
    await writeEntry(page, { title: `Harbour ${tag}`, content: 'Quiet night at the harbour.' });
    await page.reload();
    const logs = panel(page, 'INTELLIGENCE LOGS');
    const titled = (title: string) => logs.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });

    await searchFor(page, `CAFE ${tag}`);
    await expect(logs.getByRole('status')).toHaveText('1 entry matches');
    await expect(titled(`Opération Nuit ${tag}`)).toHaveCount(1);
    await expect(titled(`Harbour ${tag}`)).toHaveCount(0);
    await expect(titled(`Opération Nuit ${tag}`).locator('mark')).toHaveText([tag, 'Café']);
    await snapshot('journal-search-word');

    await searchFor(page, `"porte  rouge" ${tag}`);
    await expect(logs.getByRole('status')).toHaveText('1 entry matches');
    await expect(titled(`Opération Nuit ${tag}`).locator('mark').last()).toHaveText('porte rouge');
    await searchFor(page, `"rouge porte" ${tag}`);
    await expect(logs.getByText('No intelligence logs match your search')).toBeVisible();

    await page.setViewportSize({ width: 375, height: 812 });
    await searchFor(page, tag);
    await expect(logs.getByRole('status')).toHaveText('2 entries match');
    await snapshot('journal-search-375');
    await logs.getByRole('button', { name: 'Clear search' }).click();
    await expect(logs.getByRole('status')).toHaveCount(0);
    await expect(titled(`Harbour ${tag}`)).toHaveCount(1);
  });

  test('Markdown shows formatted at 1280 and 375 px, and a hostile entry runs nothing and sends no request', async ({ page, owner, snapshot }, testInfo) => {
    const tag = tagOf(testInfo.project.name);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    // What the page's Content-Security-Policy blocked, had anything tried.
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { cspViolations: seen });
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    await signInByApi(page, owner, '/journal');
    await writeEntry(page, {
      title: `Briefing ${tag}`,
      content: [
        '# Objectives',
        'Move **fast**, stay _quiet_, ~~no radio~~.',
        '',
        '- [x] Scout the docks',
        '- [ ] Find the courier',
        '  - check the ferry',
        '',
        '1. Enter',
        '2. Leave',
        '',
        '> Trust no one.',
        '',
        'Code word: `NIGHTJAR`; map at [the archive](https://example.org/map).',
      ].join('\n'),
    });
    await writeEntry(page, {
      title: `Hostile ${tag}`,
      content: [
        '<script>document.title = "pwned"</script>',
        '<img src="http://127.0.0.2:9/pixel.png" onerror="document.title = \'pwned\'">',
        '![tracker](http://127.0.0.2:9/t.gif) [run](javascript:document.title="pwned")',
        '<a href="http://127.0.0.2:9/" onclick="document.title = \'pwned\'">raw</a> &lt;b&gt;',
        '<svg onload="document.title = \'pwned\'"></svg><iframe src="http://127.0.0.2:9/frame"></iframe><style>body { display: none }</style>',
        '[data](data:text/html,<script>alert(1)</script>) [vb](vbscript:msgbox) &#x3C;img src=x onerror=alert(1)&#x3E; &amp;lt;i&amp;gt;',
        // A list and a quote nested 40 deep.
        Array.from({ length: 40 }, (_, depth) => `${'  '.repeat(depth)}- level ${depth}`).join('\n'),
        `${'> '.repeat(40)}deep quote`,
      ].join('\n\n'),
    });
    await page.reload();
    const logs = panel(page, 'INTELLIGENCE LOGS');
    const briefing = logs.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `Briefing ${tag}` }) });
    await expect(briefing.getByRole('heading', { level: 4, name: 'Objectives' })).toBeVisible();
    await expect(briefing.locator('strong')).toHaveText('fast');
    await expect(briefing.locator('blockquote')).toHaveText('Trust no one.');
    await expect(briefing.getByRole('checkbox')).toHaveCount(2);
    await expect(briefing.getByRole('checkbox').first()).toBeChecked();
    const link = briefing.getByRole('link', { name: 'the archive' });
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(link).toHaveAttribute('target', '_blank');
    await briefing.scrollIntoViewIfNeeded();
    await snapshot('journal-markdown-1280', { fullPage: false });

    const hostile = logs.getByRole('listitem').filter({ has: page.getByRole('heading', { name: `Hostile ${tag}` }) });
    await expect(hostile).toContainText('<script>document.title = "pwned"</script>');
    await expect(hostile).toContainText('[image: tracker]');
    // The entry's own text (its item also holds the app's buttons and their icons).
    await expect(hostile.locator('.entry-markdown').locator('img, script, a, svg, iframe, style')).toHaveCount(0);
    // The deepest item rendered in its list (the entry's preview may clip it from view).
    await expect(hostile.locator('.entry-markdown li').getByText('level 39', { exact: true })).toBeAttached();
    expect(await page.title()).not.toBe('pwned');
    // No element of the page carries an event handler attribute, and the policy had nothing to block.
    const handlers = await page.evaluate(() =>
      [...document.querySelectorAll('*')].flatMap((element) =>
        [...element.attributes].filter((attribute) => attribute.name.startsWith('on')).map((attribute) => `${element.tagName} ${attribute.name}`),
      ),
    );
    expect(handlers).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);

    await page.setViewportSize({ width: 375, height: 812 });
    await briefing.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await snapshot('journal-markdown-375', { fullPage: false });
    // Every request stayed with the vault: nothing for the image, the tracker or the links.
    const origin = new URL(page.url()).origin;
    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
  });

  test('on this day shows an entry written a year before, on the journal and the dashboard', async ({ page, owner, snapshot }, testInfo) => {
    const tag = tagOf(testInfo.project.name);
    await signInByApi(page, owner, '/journal');
    await writeEntry(page, { title: `Anniversary ${tag}`, content: '\nThe first night on watch.\nMore below.' });
    // The browser a year on: today's entry is then one from a year ago.
    const now = new Date();
    const yearOn = new Date(now);
    yearOn.setFullYear(now.getFullYear() + 1);
    await page.clock.setFixedTime(yearOn);
    await page.goto('/journal');
    const lookBack = panel(page, 'ON THIS DAY');
    const item = lookBack.getByRole('listitem').filter({ hasText: `Anniversary ${tag}` });
    await expect(item).toContainText(String(now.getFullYear()));
    await expect(item).toContainText('The first night on watch.');
    await expect(item).not.toContainText('More below.');
    await snapshot('journal-on-this-day', { fullPage: false });
    await page.goto('/');
    await expect(
      panel(page, 'ON THIS DAY')
        .getByRole('listitem')
        .filter({ hasText: `Anniversary ${tag}` }),
    ).toBeVisible();
  });
});
