import { closeSync, existsSync, fsyncSync, openSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadOrCreateKeyFile } from './master-key.js';

/**
 * Where the master key comes from, and whether an erase can destroy it.
 * Distributed mode: VAULT_MASTER_KEY, the operator's secret, which the vault
 * cannot and must not delete. Embedded mode: the key file beside the data,
 * made when the first data key is, and deleted by a self-destruct.
 */
export interface MasterKeySource {
  read(): Buffer;
  erase(): void;
}

export function fixedMasterKey(key: Buffer): MasterKeySource {
  return { read: () => key, erase: () => undefined };
}

export function masterKeyFile(path: string): MasterKeySource {
  return {
    read: () => loadOrCreateKeyFile(path),
    erase: () => {
      if (!existsSync(path)) return;
      rmSync(path);
      // The removal itself must reach the disk, or a power cut could bring the key back.
      const dir = openSync(dirname(path), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    },
  };
}
