import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The master key file beside the data (owner-only), made on first use: for runs on one machine. */
export function masterKeyFromFile(dataDir) {
  const path = join(dataDir, 'master.key');
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(path, 'utf8').trim();
}
