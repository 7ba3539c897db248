export { openEmbeddedDatabase, type EmbeddedDatabase, type EmbeddedDatabaseOptions } from './embedded-database.js';
export { EmbeddedDatabaseInUseError, OWNER_SETTING } from './postmaster.js';
export { clusterPaths, DEFAULT_DATA_DIR } from './cluster.js';
export { detectRunAs, UNPRIVILEGED_ID, type RunAs } from './privileges.js';
export { postgresBinaries, restoreLibraryLinks } from './binaries.js';
export { LOG_FILE } from './server.js';
export type { ImportSummary } from './pglite-copy.js';
