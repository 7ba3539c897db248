import { describe, expect, it } from '@jest/globals';
import { generatePassword, hashPassword, isArgon2idHash, verifyPassword } from './password-hasher.js';

describe('password hasher', () => {
  it('hashes with argon2id at OWASP minimum cost and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse');
    expect(isArgon2idHash(hash)).toBe(true);
    expect(hash).toContain('m=19456,t=2,p=1');
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'correct horsE')).toBe(false);
  });

  it('treats a malformed stored hash as a failed check, not a crash', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
    expect(isArgon2idHash('$2b$10$bcrypt-is-not-accepted')).toBe(false);
  });

  it('generates long first-run passwords from an unambiguous alphabet', () => {
    const passwords = new Set(Array.from({ length: 50 }, generatePassword));
    expect(passwords.size).toBe(50);
    for (const p of passwords) expect(p).toMatch(/^[A-HJ-NP-Za-km-z2-9]{24}$/);
  });
});
