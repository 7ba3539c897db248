import { loadVaultConfig, run, startEmbedded } from '@vault/host';
import { domainModules } from './domains.js';

run(() => {
  const config = loadVaultConfig();
  return startEmbedded(config, domainModules(config));
});
