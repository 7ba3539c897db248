import type { VaultConfig } from './vault-config.js';

/** The owner as auth-svc needs it; only the embedded first run may invent a password. */
export function ownerOptions(config: VaultConfig) {
  return {
    name: config.VAULT_OWNER_NAME,
    username: config.VAULT_OWNER_USERNAME,
    passwordHash: config.VAULT_OWNER_PASSWORD_HASH,
    password: config.VAULT_OWNER_PASSWORD,
    generateIfMissing: config.VAULT_MODE === 'embedded',
  };
}
