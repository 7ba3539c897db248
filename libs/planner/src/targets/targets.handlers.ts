import { Controller } from '@nestjs/common';
import { CreateTarget, DeleteTarget, ListTargets, Target, UpdateTarget, type RpcRequest, type RpcResponse } from '@vault/contracts';
import { Handles, RpcFailure, answerOf } from '@vault/transport';
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

/** A stored target as the API answers it (the contract's Target, derived from the row). */
export function toTarget(row: TargetRow): Target {
  return answerOf(Target, row);
}
