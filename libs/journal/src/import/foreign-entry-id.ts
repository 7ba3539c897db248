import { createHmac, hkdfSync } from 'node:crypto';

/** Vault's own export keys its notes by the entries' ids: imported back, each is that entry again. */
const VAULT_KEY = /^vault:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * The id an imported entry is stored under, from its key in its source
 * (`dayone:<uuid>`, `file:<sha256>`): the same key always gives the same id
 * in this vault, so importing a file twice finds its entries already there,
 * and the id, a keyed hash under a key derived from the data key, tells no
 * one without that key which source or which text it came from (a plain hash
 * of a note's bytes would confirm a guess at its text). Shaped as a UUID of
 * version 8 (RFC 9562, "custom"). An entry of Vault's own export keeps its id.
 */
export function foreignEntryId(dataKey: Buffer, key: string): string {
  const own = VAULT_KEY.exec(key);
  if (own) return own[1];
  const idKey = Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), 'vault journal import ids', 32));
  const bytes = createHmac('sha256', idKey).update(key, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
