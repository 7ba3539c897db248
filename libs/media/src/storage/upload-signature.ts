import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * The embedded store's answer to a presigned URL: `expires` (Unix seconds)
 * and an HMAC-SHA256 over the method, the key and that time. Anyone holding
 * the URL may PUT once before it expires; nobody can make one for another
 * key or a later time without the signing key.
 */
export class UploadSignature {
  private readonly key: Buffer;

  constructor(
    signingKey: Buffer | string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = typeof signingKey === 'string' ? Buffer.from(signingKey, 'utf8') : signingKey;
    if (this.key.length < 32) throw new Error('The upload signing key must be at least 32 bytes');
  }

  /** The query parameters of a URL for `objectKey` that expires `ttlSeconds` from now. */
  issue(objectKey: string, ttlSeconds: number): { expires: string; signature: string } {
    const expires = String(Math.floor(this.now() / 1000) + ttlSeconds);
    return { expires, signature: this.sign(objectKey, expires) };
  }

  check(objectKey: string, expires: unknown, signature: unknown): SignatureCheck {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires)) return 'invalid';
    const expected = Buffer.from(this.sign(objectKey, expires));
    const given = Buffer.from(signature);
    // Compared in constant time, so the answer's timing tells nothing about the right signature.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) * 1000 <= this.now() ? 'expired' : 'valid';
  }

  private sign(objectKey: string, expires: string): string {
    return createHmac('sha256', this.key).update(`PUT\n${objectKey}\n${expires}`).digest('base64url');
  }
}
