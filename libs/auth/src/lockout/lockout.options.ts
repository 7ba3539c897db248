/** OWASP-style lockout: 5 consecutive failures lock that address out for 15 minutes. */
export interface LockoutOptions {
  maxFailures: number;
  lockoutSeconds: number;
}

export const DEFAULT_LOCKOUT: LockoutOptions = { maxFailures: 5, lockoutSeconds: 900 };
export const LOCKOUT_OPTIONS = Symbol('LOCKOUT_OPTIONS');
