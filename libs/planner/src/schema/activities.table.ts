import { text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { plannerSchema } from './planner.schema.js';

/** The owner's custom missions; a title appears once. */
export const activities = plannerSchema.table('activities', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull().unique('activities_title'),
  description: text('description'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ActivityRow = typeof activities.$inferSelect;
