#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse's accessibility and performance scores for
// the login screen and the signed-in dashboard. It builds (Nx skips what has
// not changed; `--skip-build` skips the step), starts a fresh embedded vault
// (scripts/lib/vault-launcher.mjs) on a free port with its data in a
// temporary folder, signs in from here, and runs Lighthouse in Debian's
// Chromium with the session cookie as an extra header. Fails when an
// accessibility score is under 95. The JSON reports are kept in a temporary
// folder whose path is printed.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ensureBuilt } from './lib/build.mjs';
import { embeddedMode, login, startMode, stopMode } from './lib/vault-launcher.mjs';
import { freePort } from './lib/free-port.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const MIN_ACCESSIBILITY = 95;

const log = (line) => process.stdout.write(`${line}\n`);

/** Signs in like the login form does; the Cookie header of the new session, checked on GET /api/user. */
async function signIn(baseURL) {
  const cookie = await login(baseURL);
  if (!cookie) throw new Error('Sign-in answered 200 without a session cookie.');
  const user = await fetch(`${baseURL}/api/user`, { headers: { cookie } });
  if (user.status !== 200) throw new Error(`The session cookie is refused: GET /api/user answered ${user.status}.`);
  return cookie;
}

/** URLs the page requested during the run (to prove which screen Lighthouse saw). */
function requestedPaths(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return new Set(items.map((item) => new URL(item.url).pathname));
}

function failingAudits(lhr, category) {
  return lhr.categories[category].auditRefs
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit.scoreDisplayMode === 'binary' && audit.score !== 1)
    .map((audit) => audit.id);
}

/**
 * One Lighthouse run of a page. A run that fails in Lighthouse itself (for
 * example NO_NAVSTART, a trace recorded without its navigation, for which
 * Lighthouse's own advice is to run it again) is run once more; a second
 * failure fails the script.
 */
async function auditPage(port, page) {
  for (let attempt = 1; ; attempt++) {
    const runner = await lighthouse(page.url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['accessibility', 'performance'],
      extraHeaders: page.headers,
    });
    if (!runner) throw new Error(`Lighthouse returned nothing for ${page.name}.`);
    const error = runner.lhr.runtimeError;
    if (!error) return runner;
    if (attempt === 2) throw new Error(`Lighthouse failed on ${page.name} twice: ${error.message}`);
    log(`Lighthouse failed on ${page.name} (${error.code}); running it once more.`);
  }
}

async function main() {
  const skipBuild = process.argv.includes('--skip-build');
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (apt-get install chromium); no browser is downloaded.`);
  if (!skipBuild) await ensureBuilt(ROOT);

  const dataDir = mkdtempSync(join(tmpdir(), 'vault-lighthouse-data-'));
  const reportsDir = mkdtempSync(join(tmpdir(), 'vault-lighthouse-reports-'));
  const port = await freePort();
  const mode = embeddedMode({ port, dataDir });
  const baseURL = mode.base;
  let vault;
  let chrome;
  const cleanup = async () => {
    await chrome?.kill();
    if (vault) await stopMode(vault);
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  }

  try {
    // A clean environment: a developer's VAULT_* or DATABASE_URL must not leak into this vault.
    vault = await startMode(mode, { environment: 'clean', stdio: ['ignore', 'inherit', 'inherit'] });
    log(`Embedded vault ready at ${baseURL}`);
    const cookie = await signIn(baseURL);
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });

    const pages = [
      { name: 'login', url: `${baseURL}/`, headers: undefined, expectPath: '/api/system/owner' },
      { name: 'dashboard', url: `${baseURL}/`, headers: { Cookie: cookie }, expectPath: '/api/targets' },
    ];
    const results = [];
    for (const page of pages) {
      const runner = await auditPage(chrome.port, page);
      const { lhr } = runner;
      if (!requestedPaths(lhr).has(page.expectPath)) {
        throw new Error(`The ${page.name} run never requested ${page.expectPath}: Lighthouse did not see that screen.`);
      }
      const reportPath = join(reportsDir, `${page.name}.json`);
      // One output format asked for, so one report.
      writeFileSync(reportPath, /** @type {string} */ (runner.report));
      results.push({
        page: page.name,
        accessibility: Math.round(lhr.categories.accessibility.score * 100),
        performance: Math.round(lhr.categories.performance.score * 100),
        failing: failingAudits(lhr, 'accessibility'),
      });
    }

    log('\npage        accessibility  performance');
    for (const r of results) {
      log(`${r.page.padEnd(12)}${String(r.accessibility).padStart(13)}${String(r.performance).padStart(13)}`);
      if (r.failing.length > 0) log(`  accessibility audits not passed: ${r.failing.join(', ')}`);
    }
    log(`\nJSON reports: ${reportsDir}`);
    const low = results.filter((r) => r.accessibility < MIN_ACCESSIBILITY);
    if (low.length > 0) {
      log(`Accessibility under ${MIN_ACCESSIBILITY}: ${low.map((r) => r.page).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
