import { boolean, index, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { plannerSchema } from './planner.schema.js';

export const studies = plannerSchema.table(
  'studies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subject: text('subject').notNull(),
    endGoal: text('end_goal').notNull(),
    completed: boolean('completed').notNull().default(false),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('studies_completed_at').on(table.completed, table.completedAt)],
);

export type StudyRow = typeof studies.$inferSelect;
