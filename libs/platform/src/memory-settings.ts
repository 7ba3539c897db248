import { setFlagsFromString } from 'node:v8';

/**
 * Every Vault process (the embedded vault, the gateway, each service) serves
 * one owner and has an idle-memory budget (docs/performance.md); these V8
 * settings are applied before the rest of the process is loaded: each app's
 * main imports this module first (`@vault/platform/memory-settings`). A flag
 * given on the node command line wins over each.
 *
 * The young generation's size is not set here: V8 sizes it when the heap is
 * set up, before any module runs, so it is on every launch line instead
 * (scripts/lib/node-flags.mjs, docs/adr/0018). Kept at 1 MB from here, as
 * it was, it cost a third of the throughput.
 *
 * - WebAssembly runs on V8's baseline compiler only. The database is a
 *   PostgreSQL server of its own now (ADR 0009); the one WebAssembly left is
 *   PGlite, loaded only by the first start after an upgrade to import a
 *   PGlite folder, where the optimised tier would keep a second copy of the
 *   hot PostgreSQL functions (about 50 MB) for a one-off copy.
 */
const SETTINGS: Array<[flag: string, overriddenBy: string[]]> = [
  ['--liftoff-only', ['--liftoff', '--no-liftoff', '--wasm-tier-up', '--no-wasm-tier-up', '--liftoff-only', '--no-liftoff-only']],
];

for (const [flag, overriddenBy] of SETTINGS) {
  if (!process.execArgv.some((given) => overriddenBy.some((name) => given.startsWith(name)))) setFlagsFromString(flag);
}
