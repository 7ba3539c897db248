import { randomBytes } from 'node:crypto';

/**
 * @node-rs/argon2, loaded at its first use: a native addon whose load was
 * 12 ms of every start (issue 37), for a hash only a sign-in or a new
 * password needs.
 */
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/** @node-rs/argon2's Algorithm.Argon2id; its enum is type-only under isolated modules. */
const ARGON2ID = 2;

/**
 * argon2id with OWASP's recommended minimum: 19 MiB of memory, 2 passes,
 * 1 lane. About 30 ms here: slow for a guesser, unnoticed by the owner.
 */
export async function hashPassword(password: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(password, { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

export function isArgon2idHash(value: string): boolean {
  return /^\$argon2id\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.test(value);
}

/** A first-run password: 24 characters from an unambiguous alphabet, about 137 bits. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(24);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
