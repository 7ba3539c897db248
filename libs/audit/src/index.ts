export * from './audit.module.js';
export { AUDIT_MIGRATIONS } from './database.js';
