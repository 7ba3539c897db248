export * from './planner.module.js';
export * from './database.js';
export { targets } from './schema/targets.table.js';
