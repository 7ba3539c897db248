import { loadVaultConfig, run, startGateway } from '@vault/host';

run(() => startGateway(loadVaultConfig()));
