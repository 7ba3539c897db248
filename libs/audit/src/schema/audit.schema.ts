import { pgSchema } from 'drizzle-orm/pg-core';

/** Everything audit-svc owns lives in this Postgres schema; no other service reads it. */
export const auditSchema = pgSchema('audit');
