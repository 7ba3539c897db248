export * from './connection.js';
export * from './database.js';
export * from './migrations.js';
export * from './persistence.module.js';
export * from './service-roles.js';
export * from './embedded-postgres/index.js';
export * from './durability-check.js';
export * from './integrity-violation.js';
