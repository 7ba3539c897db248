import { z } from 'zod';
import { DESCRIPTION_MAX, Empty, EntityId, TITLE_MAX, optionalText, requiredText } from './fields.js';
import { defineRpc } from './rpc.js';

/** A custom mission of the generator's pool (an "activity" in the API). */
export const Activity = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
});
export type Activity = z.infer<typeof Activity>;

export const CreateActivityBody = z.object({
  title: requiredText(TITLE_MAX),
  description: optionalText(DESCRIPTION_MAX),
});
export type CreateActivityBody = z.input<typeof CreateActivityBody>;

export const ListActivities = defineRpc({ pattern: 'planner.activities.list', request: Empty, response: z.array(Activity) });
export const CreateActivity = defineRpc({ pattern: 'planner.activities.create', request: CreateActivityBody, response: Activity });
export const DeleteActivity = defineRpc({
  pattern: 'planner.activities.delete',
  request: z.object({ id: EntityId }),
  response: z.object({ id: z.string() }),
});
