import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetOfflineShell, registerShellWorker } from './offline-shell';

/** A browser's worker registrations and caches, as far as forgetOfflineShell uses them. */
function standInBrowser({ failing = false } = {}) {
  const unregistered: string[] = [];
  const deleted: string[] = [];
  const registration = (scope: string) => ({ scope, unregister: async () => void unregistered.push(scope) });
  const serviceWorker = {
    register: vi.fn(async () => registration('/')),
    getRegistrations: async () => {
      if (failing) throw new DOMException('The operation is insecure.', 'SecurityError');
      return [registration('/')];
    },
  };
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { serviceWorker }));
  vi.stubGlobal('caches', {
    keys: async () => ['vault-shell-1', 'vault-shell-2'],
    delete: async (name: string) => void deleted.push(name),
  });
  return { unregistered, deleted, serviceWorker };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('forgetOfflineShell', () => {
  it('unregisters the worker and deletes every cache of the origin', async () => {
    const browser = standInBrowser();
    await forgetOfflineShell();
    expect(browser.unregistered).toEqual(['/']);
    expect(browser.deleted).toEqual(['vault-shell-1', 'vault-shell-2']);
  });

  it('never fails, so that the sign-out goes on', async () => {
    standInBrowser({ failing: true });
    await expect(forgetOfflineShell()).resolves.toBeUndefined();
  });

  it('does nothing where the browser offers no workers (jsdom, plain HTTP)', async () => {
    await expect(forgetOfflineShell()).resolves.toBeUndefined();
  });
});

describe('registerShellWorker', () => {
  it('registers nothing outside a built app (the development server has no /sw.js)', () => {
    const browser = standInBrowser();
    registerShellWorker();
    expect(browser.serviceWorker.register).not.toHaveBeenCalled();
  });

  it('registers the built app’s worker for the whole app, its updates never read from the HTTP cache', () => {
    vi.stubEnv('PROD', true);
    const browser = standInBrowser();
    registerShellWorker();
    expect(browser.serviceWorker.register).toHaveBeenCalledWith('/sw.js', { scope: '/', updateViaCache: 'none' });
  });

  it('lets a refused registration go quietly: the app works without an offline shell', async () => {
    vi.stubEnv('PROD', true);
    const browser = standInBrowser();
    browser.serviceWorker.register.mockRejectedValueOnce(new DOMException('Storage is off', 'SecurityError'));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    registerShellWorker();
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });
});
