// First, before the rest of the process is even loaded: the heap settings of the embedded vault,
import '@vault/platform/memory-settings';
// then its database server, which boots while the rest loads.
import { earlyDatabase } from './early-database.js';

const { loadProcessConfig, run, startEmbedded } = await import('@vault/host');
const { domainModules, serviceMigrations } = await import('./domains.js');

run(() => {
  const config = loadProcessConfig('vault');
  return startEmbedded(config, domainModules(config), { pgliteImport: serviceMigrations(), startedEarly: earlyDatabase });
});
