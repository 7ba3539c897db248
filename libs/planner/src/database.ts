import { Inject } from '@nestjs/common';
import { fileURLToPath } from 'node:url';

/** The token of planner-svc's Drizzle handle. */
export const PLANNER_DB = Symbol('PLANNER_DB');
export const InjectPlannerDb = () => Inject(PLANNER_DB);

/** Beside `src/` and `dist/` alike, so both the sources and the build find it. */
export const PLANNER_MIGRATIONS = fileURLToPath(new URL('../migrations', import.meta.url));
