import { setFlagsFromString } from 'node:v8';

/**
 * Every Vault process (the embedded vault, the gateway, each service) serves
 * one owner and has an idle-memory budget (docs/performance.md); these V8
 * settings are applied before the rest of the process is loaded: each app's
 * main imports this module first (`@vault/platform/memory-settings`). A flag
 * given on the node command line wins over each.
 *
 * - The young generation stays at its initial size instead of growing to
 *   3 x 16 MB and staying resident once the load is gone.
 * - WebAssembly runs on V8's baseline compiler only. The database is a
 *   PostgreSQL server of its own now (ADR 0009); the one WebAssembly left is
 *   PGlite, loaded only by the first start after an upgrade to import a
 *   PGlite folder, where the optimised tier would keep a second copy of the
 *   hot PostgreSQL functions (about 50 MB) for a one-off copy.
 */
const SETTINGS: Array<[flag: string, overriddenBy: string[]]> = [
  ['--semi-space-growth-factor=1', ['--semi-space-growth-factor', '--max-semi-space-size', '--min-semi-space-size']],
  ['--liftoff-only', ['--liftoff', '--no-liftoff', '--wasm-tier-up', '--no-wasm-tier-up', '--liftoff-only', '--no-liftoff-only']],
];

for (const [flag, overriddenBy] of SETTINGS) {
  if (!process.execArgv.some((given) => overriddenBy.some((name) => given.startsWith(name)))) setFlagsFromString(flag);
}
