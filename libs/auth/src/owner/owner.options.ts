/** The owner as the operator configured them (VAULT_OWNER_*). */
export interface OwnerOptions {
  name: string;
  username: string;
  /** An argon2id hash; wins over everything else when set. */
  passwordHash?: string;
  /** A plain password, hashed at start; for first runs and tests. */
  password?: string;
  /** With no hash, no password and nothing stored: generate one and print it once (embedded first run). */
  generateIfMissing: boolean;
}

export const OWNER_OPTIONS = Symbol('OWNER_OPTIONS');
