import { boolean, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { plannerSchema } from './planner.schema.js';

export const targets = plannerSchema.table('targets', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  description: text('description'),
  completed: boolean('completed').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});

export type TargetRow = typeof targets.$inferSelect;
