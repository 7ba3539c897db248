import type { ServiceName } from '@vault/contracts';
import type { LoginRateLimit } from './auth/login-rate-limit.js';

export interface GatewayOptions {
  /** The session lifetime counted from sign-in (spec: half an hour). */
  sessionTtlSeconds: number;
  /** Redis for the distributed mode; memory when absent (embedded). */
  redisUrl?: string;
  /** Sign-in attempts allowed per client address and window. */
  loginRateLimit: LoginRateLimit;
  /** The services that must confirm a self-destruct (each answers `<service>.erase`). */
  services: readonly ServiceName[];
  /** The built web app; absent when the gateway serves the API only. */
  webDistDir?: string;
  /**
   * The host names the gateway answers (VAULT_ALLOWED_HOSTS: a name, `*.domain`,
   * optional `:port`); any other Host gets 421, and a write's Origin must be one of them.
   */
  allowedHosts: string[];
}

export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');
