import { randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: a code is read off paper. 10 characters of 31: about 50 bits, with a lockout after five tries. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

/** Ten fresh codes, shown as `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What is hashed and compared: the letters and digits only, lower case, so `ABCDE FGHJK` matches `abcde-fghjk`. */
export function normalRecoveryCode(code: string): string | undefined {
  const normal = code.toLowerCase().replace(/[\s-]/g, '');
  return normal.length === LENGTH && [...normal].every((c) => ALPHABET.includes(c)) ? normal : undefined;
}
