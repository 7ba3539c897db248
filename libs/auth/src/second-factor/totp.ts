import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;

function totpFor(secretBase32: string, accountName = 'owner') {
  return new TOTP({ issuer: 'Vault', label: accountName, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** A new 160-bit secret (RFC 4226's recommended length), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI and its QR code (a PNG data URL, which the page's img-src allows). */
export async function totpProvisioning(secretBase32: string, accountName: string): Promise<{ otpauthUri: string; qrCode: string }> {
  const otpauthUri = totpFor(secretBase32, accountName).toString();
  // Loaded by the first enrolment only.
  const { default: QRCode } = await import('qrcode');
  return { otpauthUri, qrCode: await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: 'M', margin: 2, width: 220 }) };
}

/**
 * The time step a code belongs to, if it is right for now or the step just
 * before or after (one step of clock drift either way), else undefined. A
 * code two steps old is refused.
 */
export function totpStepOf(secretBase32: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpFor(secretBase32).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
