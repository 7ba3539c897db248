import { describe, expect, it } from '@jest/globals';
import { UploadSignature } from './upload-signature.js';

const KEY = 'k'.repeat(32);
const OBJECT = 'uploads/6f1c7a0e-4b8e-4f3a-9a7e-2b1d7c9e0f11';

describe('upload signature', () => {
  it('accepts its own signature until the expiry, and not from then on', () => {
    let now = 1_700_000_000_000;
    const signer = new UploadSignature(KEY, () => now);
    const { expires, signature } = signer.issue(OBJECT, 600);
    expect(expires).toBe('1700000600');
    expect(signature).toMatch(/^[\w-]{43}$/);
    expect(signer.check(OBJECT, expires, signature)).toBe('valid');
    now += 599_999;
    expect(signer.check(OBJECT, expires, signature)).toBe('valid');
    now += 1;
    expect(signer.check(OBJECT, expires, signature)).toBe('expired');
  });

  it('refuses a signature moved to another key, a later expiry, or another signing key', () => {
    const signer = new UploadSignature(KEY, () => 0);
    const { expires, signature } = signer.issue(OBJECT, 600);
    expect(signer.check('uploads/00000000-0000-4000-8000-000000000000', expires, signature)).toBe('invalid');
    expect(signer.check(OBJECT, String(Number(expires) + 1), signature)).toBe('invalid');
    expect(new UploadSignature('x'.repeat(32), () => 0).check(OBJECT, expires, signature)).toBe('invalid');
  });

  it('refuses missing, malformed and truncated parameters without throwing', () => {
    const signer = new UploadSignature(Buffer.alloc(32, 7), () => 0);
    const { expires, signature } = signer.issue(OBJECT, 600);
    expect(signer.check(OBJECT, undefined, signature)).toBe('invalid');
    expect(signer.check(OBJECT, expires, undefined)).toBe('invalid');
    expect(signer.check(OBJECT, ['1', '2'], signature)).toBe('invalid');
    expect(signer.check(OBJECT, '-5', signature)).toBe('invalid');
    expect(signer.check(OBJECT, expires, signature.slice(0, -1))).toBe('invalid');
    expect(signer.check(OBJECT, expires, `${signature}=`)).toBe('invalid');
  });

  it('needs a signing key of at least 32 bytes', () => {
    expect(() => new UploadSignature('short')).toThrow('at least 32 bytes');
  });
});
