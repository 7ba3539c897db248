/**
 * Values the API enforces and the web repeats to the owner before sending.
 * Declared here, with no zod, so the web can import them at run time without
 * bringing zod into its bundle (the package is marked side-effect free, so a
 * bundler keeps this file alone); the contracts take them from here.
 */

/** Spec 5 and 9: one photo of at most 10 MB (10,485,760 bytes). */
export const PHOTO_MAX_BYTES = 10_485_760;

/** The only types a photo may have, told from its first bytes, never from its name or upload header. */
export const PHOTO_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** The shortest passphrase an encrypted export accepts. */
export const EXPORT_PASSPHRASE_MIN = 12;

/** Where every vault's balance starts. */
export const INITIAL_BALANCE = 1_000_000_000;
