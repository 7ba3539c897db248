/** The options each process gives the shared modules, derived from the one validated configuration. */
import { SERVICE_NAMES } from '@vault/contracts';
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

/** auth-svc's options: the owner and the sign-in lockout. */
export function authOptions(config: VaultConfig) {
  return {
    owner: ownerOptions(config),
    migrate: !config.VAULT_SKIP_MIGRATIONS,
    lockout: { maxFailures: config.VAULT_LOCKOUT_FAILURES, lockoutSeconds: config.VAULT_LOCKOUT_SECONDS },
  };
}

/** The gateway's options, the same in both modes but for where sessions live. */
export function gatewayOptions(config: VaultConfig, extra: { redisUrl?: string; webDistDir?: string }) {
  return {
    sessionTtlSeconds: config.SESSION_TTL_SECONDS,
    loginRateLimit: { attempts: config.VAULT_LOGIN_RATE_LIMIT, windowSeconds: config.VAULT_LOGIN_RATE_WINDOW_SECONDS },
    // Every service of the vault must confirm a self-destruct.
    services: SERVICE_NAMES,
    allowedHosts: config.VAULT_ALLOWED_HOSTS,
    ...extra,
  };
}
