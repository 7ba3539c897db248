import { boolean, index, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { plannerSchema } from './planner.schema.js';

export const weeklyTemplates = plannerSchema.table(
  'weekly_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description'),
    /** `HH:MM`, 24-hour; sorts correctly as text. */
    time: text('time').notNull(),
    /** 0 is Sunday. */
    dayOfWeek: smallint('day_of_week').notNull(),
    isRepeating: boolean('is_repeating').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('weekly_templates_day_time').on(table.dayOfWeek, table.time)],
);

export type WeeklyTemplateRow = typeof weeklyTemplates.$inferSelect;
