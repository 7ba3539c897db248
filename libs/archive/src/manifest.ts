import { ARCHIVE_FORMAT } from '@vault/contracts';
import { z } from 'zod';

/**
 * `manifest.json`: what the archive holds (counts per kind) and the SHA-256
 * and size of every other file in it. A restore checks every byte against it
 * before it changes anything. The format version is read loosely here, so an
 * archive of another version is told apart from a foreign file.
 */
export const Manifest = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.number(),
  exportedAt: z.string(),
  counts: z.record(z.string(), z.number().int().min(0)),
  files: z.record(z.string(), z.strictObject({ size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});
export type Manifest = z.infer<typeof Manifest>;
