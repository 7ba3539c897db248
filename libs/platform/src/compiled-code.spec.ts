import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCompiled } from './compiled-code.js';

/** A program file as scripts/lib/app-bundle.mjs writes one: a CommonJS module's function, in ASCII. */
const PROGRAM = `(function (exports, require, module, __filename, __dirname) {
  const { basename } = require('node:path');
  function greet(name) { return 'hello ' + name; }
  exports.greeting = greet('vault');
  exports.file = basename(__filename);
  exports.folder = __dirname;
  exports.sameExports = this === exports;
  exports.called = () => greet('again');
})`;

describe('runCompiled', () => {
  const folders: string[] = [];
  const programIn = (text = PROGRAM) => {
    const folder = mkdtempSync(join(tmpdir(), 'vault-compiled-'));
    folders.push(folder);
    const file = join(folder, 'program.js');
    writeFileSync(file, text);
    return { folder, file, cache: `${file}.cache` };
  };
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('runs the file as a CommonJS module: its require, __filename, __dirname, exports as this', () => {
    const { folder, file } = programIn();
    const program = runCompiled(file);
    expect(program.exports).toMatchObject({ greeting: 'hello vault', file: 'program.js', folder, sameExports: true });
    expect((program.exports.called as () => string)()).toBe('hello again');
  });

  it('compiles afresh the first time, keeps the cache on request, and the next run takes it', () => {
    const { file, cache } = programIn();
    const first = runCompiled(file);
    expect(first.fromCache).toBe(false);
    expect(existsSync(cache)).toBe(false);
    first.keepCache();
    expect(statSync(cache).size).toBeGreaterThan(0);
    const written = readFileSync(cache);

    const second = runCompiled(file);
    expect(second.fromCache).toBe(true);
    expect(second.exports.greeting).toBe('hello vault');
    // A cache V8 took is not written again.
    second.keepCache();
    expect(readFileSync(cache).equals(written)).toBe(true);
  });

  it('compiles afresh, and replaces the cache, when the file changed since the cache was made', () => {
    const { file, cache } = programIn();
    runCompiled(file).keepCache();
    const before = readFileSync(cache);
    writeFileSync(file, PROGRAM.replace("greet('vault')", "greet('another build of the vault')"));
    const rebuilt = runCompiled(file);
    expect(rebuilt.fromCache).toBe(false);
    expect(rebuilt.exports.greeting).toBe('hello another build of the vault');
    rebuilt.keepCache();
    expect(readFileSync(cache).equals(before)).toBe(false);
    expect(runCompiled(file).fromCache).toBe(true);
  });

  it('compiles afresh when the file changed to another of the same length (V8 checks only the length)', () => {
    const { file } = programIn();
    runCompiled(file).keepCache();
    writeFileSync(file, PROGRAM.replace("greet('vault')", "greet('VAULT')"));
    const rebuilt = runCompiled(file);
    expect(rebuilt.fromCache).toBe(false);
    expect(rebuilt.exports.greeting).toBe('hello VAULT');
  });

  it('compiles afresh when the cache is not V8 data at all', () => {
    const { file, cache } = programIn();
    writeFileSync(cache, 'not a code cache');
    const program = runCompiled(file);
    expect(program.fromCache).toBe(false);
    expect(program.exports.greeting).toBe('hello vault');
  });

  it('runs on without a cache where it cannot write one, leaving nothing behind', () => {
    const { folder, file, cache } = programIn();
    // A folder where the cache would go: the write fails as in a read-only image, whoever runs the test (root writes anywhere).
    mkdirSync(cache);
    const program = runCompiled(file);
    expect(program.fromCache).toBe(false);
    expect(() => program.keepCache()).not.toThrow();
    expect(readdirSync(folder).sort()).toEqual(['program.js', 'program.js.cache']);
    expect(statSync(cache).isDirectory()).toBe(true);
    expect(program.exports.greeting).toBe('hello vault');
  });
});
