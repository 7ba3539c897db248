import { describe, expect, it } from '@jest/globals';
import { Secret, TOTP } from 'otpauth';
import { newRecoveryCodes, normalRecoveryCode } from './recovery-codes.js';
import { newTotpSecret, totpProvisioning, totpStepOf } from './totp.js';

const code = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });

describe('authenticator app codes (RFC 6238)', () => {
  const secret = newTotpSecret();
  const now = 1_800_000_015_000;
  const step = Math.floor(now / 30_000);

  it('makes 160-bit base32 secrets and an otpauth URI with a QR code', async () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const { otpauthUri, qrCode } = await totpProvisioning(secret, 'agent');
    expect(otpauthUri).toBe(`otpauth://totp/Vault:agent?issuer=Vault&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
  });

  it('places a code in its time step, one step of drift either way, and refuses one two steps away', () => {
    expect(totpStepOf(secret, code(secret, now), now)).toBe(step);
    expect(totpStepOf(secret, code(secret, now - 30_000), now)).toBe(step - 1);
    expect(totpStepOf(secret, code(secret, now + 30_000), now)).toBe(step + 1);
    expect(totpStepOf(secret, code(secret, now - 60_000), now)).toBeUndefined();
    expect(totpStepOf(secret, 'abcdef', now)).toBeUndefined();
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes of an unambiguous alphabet, matched however they are typed', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    expect(normalRecoveryCode(` ${codes[0].toUpperCase().replace('-', ' ')} `)).toBe(codes[0].replace('-', ''));
    expect(normalRecoveryCode('abcde-fghi1')).toBeUndefined();
    expect(normalRecoveryCode('123456')).toBeUndefined();
  });
});
