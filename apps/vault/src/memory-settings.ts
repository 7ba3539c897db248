import { setFlagsFromString } from 'node:v8';

/**
 * The embedded vault is one single-owner process with an idle-memory budget
 * (docs/performance.md); these V8 settings are applied before the rest of the
 * process is loaded. A flag given on the node command line wins over each.
 *
 * - The young generation stays at its initial size instead of growing to
 *   3 x 16 MB and staying resident once the load is gone.
 * - PGlite's WebAssembly runs on V8's baseline compiler only: the optimised
 *   tier keeps a second copy of the hot PostgreSQL functions (about 50 MB
 *   measured here) and does not change the API's throughput measurably,
 *   which PGlite's JavaScript side and the file system emulation dominate.
 */
const SETTINGS: Array<[flag: string, overriddenBy: string[]]> = [
  ['--semi-space-growth-factor=1', ['--semi-space-growth-factor', '--max-semi-space-size', '--min-semi-space-size']],
  ['--liftoff-only', ['--liftoff', '--no-liftoff', '--wasm-tier-up', '--no-wasm-tier-up', '--liftoff-only', '--no-liftoff-only']],
];

for (const [flag, overriddenBy] of SETTINGS) {
  if (!process.execArgv.some((given) => overriddenBy.some((name) => given.startsWith(name)))) setFlagsFromString(flag);
}
