// First, before the rest of the process is even loaded: the heap settings of the embedded vault.
import './memory-settings.js';

const { loadVaultConfig, run, startEmbedded } = await import('@vault/host');
const { domainModules, serviceMigrations } = await import('./domains.js');

run(() => {
  const config = loadVaultConfig();
  return startEmbedded(config, domainModules(config), { pgliteImport: serviceMigrations() });
});
