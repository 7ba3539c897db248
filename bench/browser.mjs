// What the scale part of `npm run bench` measures in Debian's Chromium (never
// a downloaded browser): the journal screen's first entries and the
// dashboard's transfer size, signed in with a session cookie.
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export async function signedInPage(base, cookie) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const context = await browser.newContext();
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, domain: new URL(base).hostname, path: '/' }]);
  return { browser, page: await context.newPage() };
}

/**
 * Milliseconds from the start of navigation to the first frame painted with the
 * newest entry's title in it, read inside the page (Playwright's own waiting
 * polls and would add up to 100 ms). Each load replaces the page already
 * open in the tab, as reopening the journal does; from about:blank, headless
 * Chromium here would add its own ~0.4 s of starting a renderer process for the
 * site, before the vault is asked for anything. The median of `runs` loads,
 * with min and max.
 */
export async function journalFirstEntries(page, base, newestTitle, runs = 5) {
  await page.context().addInitScript((title) => {
    const observer = new MutationObserver(() => {
      if (!document.body.textContent.includes(title)) return;
      observer.disconnect();
      requestAnimationFrame(() => {
        /** @type {any} */ (window).__firstEntriesPainted = performance.now();
      });
    });
    document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true, characterData: true }));
  }, newestTitle);
  const times = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(`${base}/journal`);
    await page.getByText(newestTitle, { exact: true }).first().waitFor();
    times.push(await (await page.waitForFunction(() => /** @type {any} */ (window).__firstEntriesPainted)).jsonValue());
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(runs / 2)], min: times[0], max: times[runs - 1] };
}

/**
 * Bytes over the wire (compressed, headers included) for a cold load of the
 * signed-in dashboard until the network is idle: the document, the app's
 * files and every API call the dashboard makes.
 */
export async function dashboardTransfer(page, base) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map();
  const sizes = new Map();
  cdp.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, new URL(event.request.url).pathname));
  cdp.on('Network.loadingFinished', (event) => sizes.set(event.requestId, event.encodedDataLength));
  await page.goto(`${base}/`, { waitUntil: 'networkidle' });
  let total = 0;
  let api = 0;
  for (const [id, bytes] of sizes) {
    total += bytes;
    if (urls.get(id)?.startsWith('/api/')) api += bytes;
  }
  await cdp.detach();
  return { total, api, requests: sizes.size };
}
