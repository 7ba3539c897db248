import { boolean, date, index, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { plannerSchema } from './planner.schema.js';
import { weeklyTemplates } from './weekly-templates.table.js';

export const scheduleItems = plannerSchema.table(
  'schedule_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    date: date('date', { mode: 'string' }).notNull(),
    time: text('time').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    completed: boolean('completed').notNull().default(false),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The template it was applied from; cleared when a one-time template is deleted. */
    templateId: uuid('template_id').references(() => weeklyTemplates.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Applying the same day's templates twice adds nothing.
    unique('schedule_items_date_template').on(table.date, table.templateId),
    index('schedule_items_date_time').on(table.date, table.time),
  ],
);

export type ScheduleItemRow = typeof scheduleItems.$inferSelect;
