import { Inject } from '@nestjs/common';
import type { ServiceMigrations } from '@vault/persistence';
import { fileURLToPath } from 'node:url';

/** The token of planner-svc's Drizzle handle. */
export const PLANNER_DB = Symbol('PLANNER_DB');
export const InjectPlannerDb = () => Inject(PLANNER_DB);

/** Its schema, and its migrations' folder: beside `src/` and `dist/` alike, so both the sources and the build find it. */
export const PLANNER_MIGRATIONS: ServiceMigrations = { schema: 'planner', folder: fileURLToPath(new URL('../migrations', import.meta.url)) };
