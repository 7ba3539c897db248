export * from './planner.module.js';
export * from './database.js';
export { targets } from './schema/targets.table.js';
export { PLANNER_ARCHIVE_TABLES } from './archive/planner-archive.tables.js';
