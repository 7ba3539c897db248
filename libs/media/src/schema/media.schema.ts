import { pgSchema } from 'drizzle-orm/pg-core';

/** Everything media-svc owns lives in this Postgres schema; no other service reads it. */
export const mediaSchema = pgSchema('media');
