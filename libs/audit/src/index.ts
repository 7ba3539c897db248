export * from './audit.module.js';
export { AUDIT_MIGRATIONS } from './database.js';
export { AUDIT_ARCHIVE_TABLES } from './archive/audit-archive.tables.js';
