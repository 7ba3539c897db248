import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** A program run with V8's code cache: what it exports, and whether its compiled code came from the cache. */
export interface CompiledProgram {
  exports: Record<string, unknown>;
  /** True when V8 took the cache beside the file; false when there was none or V8 refused it (another Node, other V8 flags, another build). */
  fromCache: boolean;
  /**
   * Writes the cache of the code compiled so far (the functions the process
   * has run by now, not only the file's top level) beside the file, when it
   * was not read from there. Never throws: a folder it may not write (a
   * read-only image) leaves the next start compiling as this one did.
   */
  keepCache(): void;
}

/** The parameters Node gives a CommonJS module's code, which a program file's function takes. */
type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/**
 * Runs a program file as Node runs a CommonJS module (its own `require`,
 * `module`, `__filename` and `__dirname`), with V8's code cache kept beside
 * it as `FILE.cache`. Node 20 has no compile cache of its own (22 has
 * module.enableCompileCache); this is what it does, for one file.
 *
 * The file is a script whose value is the module's function,
 * `(function (exports, require, module, __filename, __dirname) {...})`, in
 * ASCII (scripts/lib/app-bundle.mjs writes it so): read as latin1, its text is
 * one byte a character outside V8's heap, and V8 keeps it as it is for as
 * long as the process runs (a text joined to a wrapper here would be copied
 * into the heap).
 *
 * V8 checks a cache against its own version, its flags and the source's
 * length, and compiles afresh when any differs; the caller's V8 flags must be
 * set before this is called, and the program must not change them
 * (docs/adr/0019). The length alone would let a rebuild of the same length
 * run the old build's code, so the cache starts with the SHA-256 of the
 * source it was made from, and is used only for that source (5 ms for the
 * vault's 6 MB).
 */
export function runCompiled(file: string): CompiledProgram {
  const cacheFile = `${file}.cache`;
  const bytes = readFileSync(file);
  const sourceHash = createHash('sha256').update(bytes).digest();
  const cache = readIfPresent(cacheFile);
  const cached = cache?.subarray(0, sourceHash.length).equals(sourceHash) ? cache.subarray(sourceHash.length) : undefined;
  const script = new Script(bytes.toString('latin1'), { filename: file, cachedData: cached });
  const fromCache = cached !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as ModuleFunction).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    fromCache,
    keepCache() {
      if (fromCache) return;
      const partial = `${cacheFile}.${process.pid}`;
      try {
        writeFileSync(partial, Buffer.concat([sourceHash, script.createCachedData()]));
        // Whole or not at all: a start that reads it meanwhile sees the old cache or none.
        renameSync(partial, cacheFile);
      } catch {
        rmSync(partial, { force: true });
      }
    },
  };
}

function readIfPresent(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
