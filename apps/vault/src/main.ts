// First, before the rest of the process is even loaded: the heap settings of the embedded vault,
import '@vault/platform/memory-settings';
// then its database server, which boots while the rest loads.
import { earlyDatabase } from './early-database.js';

/**
 * The vault, started once the modules below are loaded (imported here, not
 * above, so that the database server's start comes first); resolves once it
 * answers. A function's body, not the module's top level: the bundle that
 * `npm start` runs is one script (scripts/lib/app-bundle.mjs's buildProgram), which has no top-level await.
 */
export const started: Promise<unknown> = (async () => {
  await earlyDatabase.underway;
  const { loadProcessConfig, run, startEmbedded } = await import('@vault/host');
  const { domainModules, serviceMigrations } = await import('./domains.js');
  return run(() => {
    const config = loadProcessConfig('vault');
    return startEmbedded(config, domainModules(config), { pgliteImport: serviceMigrations(), startedEarly: earlyDatabase });
  });
})();
