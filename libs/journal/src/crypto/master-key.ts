import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { KEY_BYTES } from './field-cipher.js';

/** `VAULT_MASTER_KEY`: 32 random bytes in base64 (`openssl rand -base64 32`). */
export function parseMasterKey(base64: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`VAULT_MASTER_KEY must be ${KEY_BYTES} bytes in base64 (openssl rand -base64 32)`);
  return key;
}

/**
 * The embedded mode's master key: a file beside the data, created on the
 * first run and readable by the owner only. Whoever copies the data folder
 * without this file cannot read the journal.
 */
export function loadOrCreateKeyFile(path: string): Buffer {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  chmodSync(path, 0o600);
  return parseMasterKey(readFileSync(path, 'utf8'));
}
