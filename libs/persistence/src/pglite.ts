import type { PGlite } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';

/**
 * PostgreSQL's defaults size shared memory for a server of 100 connections
 * with 128 MB of buffers; PGlite runs one single-user backend inside this
 * process, and its WASM memory stays resident. 16 MB of buffers hold a vault
 * of tens of thousands of rows (the files stay in the OS page cache as well)
 * and keep the process small (docs/performance.md).
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB', 'max_connections=5'];

/**
 * Opens a PGlite folder: the embedded mode's database before ADR 0009, read
 * once to import it into PostgreSQL. Loaded on demand, so a vault that never
 * imports never loads PGlite.
 */
export async function openPglite(dataDir: string): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  // Owner-only: the files are the owner's private life.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return PGlite.create(dataDir, {
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
  });
}
