import { describe, expect, it } from 'vitest';
import { isShellFile, SHELL_CACHE_PREFIX, shellCacheName } from './shell-files';

describe('isShellFile', () => {
  it('takes the built code, styles, fonts, icons, the page and the manifest', () => {
    for (const path of [
      'index.html',
      'assets/index-Bj4ZLavo.js',
      'assets/signed-in-DeYHoEow.js',
      'assets/index-Bj4ZLavo.css',
      'assets/display-1a2b.woff2',
      'favicon.svg',
      'icons/vault-192.png',
      '/manifest.webmanifest',
    ]) {
      expect([path, isShellFile(path)]).toEqual([path, true]);
    }
  });

  it('leaves out the worker itself, the gateway’s route hints and the brotli copies', () => {
    for (const path of ['sw.js', '/sw.js', 'route-hints.json', 'assets/index-Bj4ZLavo.js.br', 'sw.js.br']) {
      expect([path, isShellFile(path)]).toEqual([path, false]);
    }
  });
});

describe('shellCacheName', () => {
  it('names one cache per build, all under the prefix the worker clears', () => {
    expect(shellCacheName('ad39fe6b5943b579')).toBe('vault-shell-ad39fe6b5943b579');
    expect(shellCacheName('1').startsWith(SHELL_CACHE_PREFIX)).toBe(true);
  });
});
