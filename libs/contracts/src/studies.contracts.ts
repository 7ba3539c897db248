import { z } from 'zod';
import { Empty, EntityId, IsoTimestamp, TITLE_MAX, requiredText } from './fields.js';
import { defineRpc } from './rpc.js';

export const Study = z.object({
  id: z.string(),
  subject: z.string(),
  endGoal: z.string(),
  completed: z.boolean(),
  createdAt: IsoTimestamp,
  completedAt: IsoTimestamp.nullable(),
});
export type Study = z.infer<typeof Study>;

export const CreateStudyBody = z.object({
  subject: requiredText(TITLE_MAX),
  endGoal: requiredText(TITLE_MAX * 2),
});
export type CreateStudyBody = z.input<typeof CreateStudyBody>;

/** The active studies, oldest first (the dashboard's card). */
export const ListStudies = defineRpc({ pattern: 'planner.studies.list', request: Empty, response: z.array(Study) });
/** The archive: completed studies, most recently completed first. */
export const ListCompletedStudies = defineRpc({ pattern: 'planner.studies.completed', request: Empty, response: z.array(Study) });
export const CreateStudy = defineRpc({ pattern: 'planner.studies.create', request: CreateStudyBody, response: Study });
export const CompleteStudy = defineRpc({
  pattern: 'planner.studies.complete',
  request: z.object({
    id: EntityId,
    completed: z.literal(true, { error: 'must be true (a study cannot be un-completed)' }),
  }),
  response: Study,
});
export const DeleteStudy = defineRpc({
  pattern: 'planner.studies.delete',
  request: z.object({ id: EntityId }),
  response: z.object({ id: z.string() }),
});
