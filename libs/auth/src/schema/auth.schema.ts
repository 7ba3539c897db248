import { pgSchema } from 'drizzle-orm/pg-core';

/** Everything auth-svc owns lives in this Postgres schema; no other service reads it. */
export const authSchema = pgSchema('auth');
