import { Controller } from '@nestjs/common';
import { CreateTarget, DeleteTarget, ListTargets, UpdateTarget, type RpcRequest, type RpcResponse, type Target } from '@vault/contracts';
import { Handles, RpcFailure } from '@vault/transport';
import type { TargetRow } from '../schema/targets.table.js';
import { TargetsRepository } from './targets.repository.js';

/** Targets: a to-do list whose completion date the server keeps. */
@Controller()
export class TargetsHandlers {
  constructor(private readonly targets: TargetsRepository) {}

  @Handles(ListTargets)
  async list(): Promise<RpcResponse<typeof ListTargets>> {
    return (await this.targets.list()).map(toTarget);
  }

  @Handles(CreateTarget)
  async create(request: RpcRequest<typeof CreateTarget>): Promise<Target> {
    return toTarget(await this.targets.create(request));
  }

  @Handles(UpdateTarget)
  async update(request: RpcRequest<typeof UpdateTarget>): Promise<Target> {
    const row = await this.targets.setCompleted(request.id, request.completed);
    if (!row) throw RpcFailure.notFound('Target not found');
    return toTarget(row);
  }

  @Handles(DeleteTarget)
  async remove(request: RpcRequest<typeof DeleteTarget>): Promise<{ id: string }> {
    if (!(await this.targets.remove(request.id))) throw RpcFailure.notFound('Target not found');
    return { id: request.id };
  }
}

export function toTarget(row: TargetRow): Target {
  return {
    id: row.id,
    title: row.title,
    ...(row.description ? { description: row.description } : {}),
    completed: row.completed,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
  };
}
