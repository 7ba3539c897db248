import { z } from 'zod';
import { defineRpc } from './rpc.js';
import {
  DESCRIPTION_MAX,
  Empty,
  EntityId,
  IsoTimestamp,
  RecordId,
  RecordTime,
  TITLE_MAX,
  optionalText,
  recordNonEmpty,
  recordText,
  requiredText,
} from './fields.js';

export const Target = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  completed: z.boolean(),
  createdAt: IsoTimestamp,
  completedAt: IsoTimestamp.nullable(),
});
export type Target = z.infer<typeof Target>;

/** A target as the owner's archive carries it: every column of planner.targets (libs/host/src/archive-coverage.spec.ts). */
export const TargetRecord = z.strictObject({
  id: RecordId,
  title: recordNonEmpty(TITLE_MAX),
  description: recordText(DESCRIPTION_MAX).nullable(),
  completed: z.boolean(),
  createdAt: RecordTime,
  completedAt: RecordTime.nullable(),
});
export type TargetRecord = z.infer<typeof TargetRecord>;

export const CreateTargetBody = z.object({
  title: requiredText(TITLE_MAX),
  description: optionalText(DESCRIPTION_MAX),
});
export type CreateTargetBody = z.input<typeof CreateTargetBody>;

export const UpdateTargetBody = z.object({
  completed: z.boolean({ error: 'must be true or false' }),
});
export type UpdateTargetBody = z.input<typeof UpdateTargetBody>;

export const ListTargets = defineRpc({
  pattern: 'planner.targets.list',
  request: Empty,
  response: z.array(Target),
});

export const CreateTarget = defineRpc({
  pattern: 'planner.targets.create',
  request: CreateTargetBody,
  response: Target,
});

export const UpdateTarget = defineRpc({
  pattern: 'planner.targets.update',
  request: UpdateTargetBody.extend({ id: EntityId }),
  response: Target,
});

export const DeleteTarget = defineRpc({
  pattern: 'planner.targets.delete',
  request: z.object({ id: EntityId }),
  response: z.object({ id: z.string() }),
});
