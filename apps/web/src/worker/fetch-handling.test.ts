import { describe, expect, it } from 'vitest';
import { handlingOf, VAULT_ANSWER_PATTERNS } from './fetch-handling';

const ORIGIN = 'https://vault.example';
const SHELL = new Set(['/index.html', '/assets/index-1a2b.js', '/manifest.webmanifest', '/icons/vault-192.png']);

const get = (path: string, mode = 'cors') => handlingOf({ method: 'GET', mode, url: `${ORIGIN}${path}` }, ORIGIN, SHELL);

describe('handlingOf', () => {
  it('answers page navigations itself (network first, the shell when unreachable)', () => {
    for (const path of ['/', '/journal', '/targets?tab=done', '/no-such-screen']) {
      expect([path, get(path, 'navigate')]).toEqual([path, 'page']);
    }
  });

  it('answers the build’s own files from its cache', () => {
    for (const path of SHELL) expect([path, get(path, 'no-cors')]).toEqual([path, 'shell-file']);
  });

  it('never touches an API answer, a photo, an export or the health check, navigated to or fetched', () => {
    for (const path of [
      '/api/user',
      '/api/journal?limit=50&offset=0',
      '/api/settings/export',
      '/api/logout',
      '/objects/photos/6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11',
      '/health',
      '/health/ready',
    ]) {
      expect([path, get(path), get(path, 'navigate')]).toEqual([path, 'network', 'network']);
    }
  });

  it('leaves writes, other origins, unknown files and a shell file asked with a query to the network', () => {
    expect(handlingOf({ method: 'POST', mode: 'navigate', url: `${ORIGIN}/` }, ORIGIN, SHELL)).toBe('network');
    expect(handlingOf({ method: 'GET', mode: 'navigate', url: 'https://bucket.example/photo.png' }, ORIGIN, SHELL)).toBe('network');
    expect(get('/assets/old-build-9z9z.js')).toBe('network');
    expect(get('/assets/index-1a2b.js?v=2')).toBe('network');
  });
});

describe('VAULT_ANSWER_PATTERNS', () => {
  /** A pattern's `*` as URLPattern reads it in a pathname: any run of characters. */
  const matches = (pattern: string, path: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(path);

  it('names for the browser’s router the very paths the fetch handler leaves to the network', () => {
    for (const path of [
      '/api/user',
      '/api/settings/export',
      '/objects/photos/1',
      '/objects/uploads/2',
      '/health',
      '/health/ready',
      '/',
      '/journal',
      '/assets/index-1a2b.js',
      '/apiary',
      '/healthy',
    ]) {
      const routed = VAULT_ANSWER_PATTERNS.some((pattern) => matches(pattern, path));
      expect([path, routed]).toEqual([path, get(path) === 'network' && get(path, 'navigate') === 'network']);
    }
  });
});
