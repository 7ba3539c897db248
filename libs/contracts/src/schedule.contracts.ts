import { z } from 'zod';
import { DESCRIPTION_MAX, Empty, EntityId, IsoTimestamp, TITLE_MAX, optionalText, requiredText } from './fields.js';
import { ClockTime, DayOfWeek, DayOfWeekParam, IsoDate } from './planner-fields.js';
import { defineRpc } from './rpc.js';

export const WeeklyTemplate = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  time: z.string(),
  dayOfWeek: z.number(),
  isRepeating: z.boolean(),
});
export type WeeklyTemplate = z.infer<typeof WeeklyTemplate>;

export const ScheduleItem = z.object({
  id: z.string(),
  date: z.string(),
  time: z.string(),
  title: z.string(),
  description: z.string().optional(),
  completed: z.boolean(),
  completedAt: IsoTimestamp.nullable(),
});
export type ScheduleItem = z.infer<typeof ScheduleItem>;

export const CreateWeeklyTemplateBody = z.object({
  title: requiredText(TITLE_MAX),
  description: optionalText(DESCRIPTION_MAX),
  time: ClockTime,
  dayOfWeek: DayOfWeek,
  isRepeating: z.boolean({ error: 'must be true or false' }).default(true),
});
export type CreateWeeklyTemplateBody = z.input<typeof CreateWeeklyTemplateBody>;

/**
 * An edited template, sent whole like a new one (as a journal entry's edit is);
 * here isRepeating is required, so an edit never turns a one-time template
 * into a weekly one by leaving it out.
 */
export const UpdateWeeklyTemplateBody = CreateWeeklyTemplateBody.extend({
  isRepeating: z.boolean({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be true or false') }),
});
export type UpdateWeeklyTemplateBody = z.input<typeof UpdateWeeklyTemplateBody>;

export const ListWeeklyTemplates = defineRpc({
  pattern: 'planner.templates.list',
  request: Empty,
  response: z.array(WeeklyTemplate),
});

export const ListWeeklyTemplatesForDay = defineRpc({
  pattern: 'planner.templates.list-day',
  request: z.object({ dayOfWeek: DayOfWeekParam }),
  response: z.array(WeeklyTemplate),
});

export const CreateWeeklyTemplate = defineRpc({
  pattern: 'planner.templates.create',
  request: CreateWeeklyTemplateBody,
  response: WeeklyTemplate,
});

export const UpdateWeeklyTemplate = defineRpc({
  pattern: 'planner.templates.update',
  request: UpdateWeeklyTemplateBody.extend({ id: EntityId }),
  response: WeeklyTemplate,
});

export const DeleteWeeklyTemplate = defineRpc({
  pattern: 'planner.templates.delete',
  request: z.object({ id: EntityId }),
  response: z.object({ id: z.string() }),
});

export const GetSchedule = defineRpc({
  pattern: 'planner.schedule.day',
  request: z.object({ date: IsoDate }),
  response: z.array(ScheduleItem),
});

export const ApplyWeeklyTemplates = defineRpc({
  pattern: 'planner.schedule.apply',
  request: z.object({ date: IsoDate }),
  response: z.array(ScheduleItem),
});

export const CompleteScheduleItem = defineRpc({
  pattern: 'planner.schedule.complete',
  request: z.object({
    id: EntityId,
    // Completion is one way: an item is never un-completed.
    completed: z.literal(true, { error: 'must be true (a mission cannot be un-completed)' }),
  }),
  response: ScheduleItem,
});
