import { pgSchema } from 'drizzle-orm/pg-core';

/** Everything planner-svc owns lives in this Postgres schema; no other service reads it. */
export const plannerSchema = pgSchema('planner');
