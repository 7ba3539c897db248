import type { ServiceArchiveTables } from '@vault/persistence';
import { loginFailures } from '../schema/login-failures.table.js';
import { ownerCredential } from '../schema/owner-credential.table.js';
import { recoveryCodes } from '../schema/recovery-codes.table.js';
import { secondFactors } from '../schema/second-factors.table.js';
import { vaultState } from '../schema/vault-state.table.js';

/**
 * Everything auth-svc keeps, and how it goes into the owner's archive: only
 * the settings. Whatever signs in stays the restoring vault's own, so that an
 * archive (readable by whoever holds it) never carries a way into a vault.
 */
export const AUTH_ARCHIVE_TABLES = {
  archived: {
    settings: {
      table: vaultState,
      leftOut: {
        id: 'the single row’s fixed key (1), not the owner’s data',
        destroyed: 'an archive is made of a live vault and restored into one',
        updatedAt: 'when the restoring vault’s own state last changed',
      },
    },
  },
  notArchived: [
    { table: ownerCredential, why: 'the password stays the restoring vault’s own' },
    { table: secondFactors, why: 'passkeys and authenticator secrets stay the restoring vault’s own' },
    { table: recoveryCodes, why: 'recovery codes stay the restoring vault’s own' },
    { table: loginFailures, why: 'the restoring vault’s own lockout state, by client address' },
  ],
} as const satisfies ServiceArchiveTables;
