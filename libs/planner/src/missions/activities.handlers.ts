import { Controller } from '@nestjs/common';
import { Activity, CreateActivity, DeleteActivity, ListActivities, type RpcRequest } from '@vault/contracts';
import { answerOf, Handles, RpcFailure } from '@vault/transport';
import type { ActivityRow } from '../schema/activities.table.js';
import { ActivitiesRepository } from './activities.repository.js';

/** The owner's custom missions, which join the generator's built-in pool. */
@Controller()
export class ActivitiesHandlers {
  constructor(private readonly activities: ActivitiesRepository) {}

  @Handles(ListActivities)
  async list(): Promise<Activity[]> {
    return (await this.activities.list()).map(toActivity);
  }

  @Handles(CreateActivity)
  async create(request: RpcRequest<typeof CreateActivity>): Promise<Activity> {
    const row = await this.activities.create(request);
    if (!row) throw new RpcFailure(409, 'This mission is already in your custom pool');
    return toActivity(row);
  }

  @Handles(DeleteActivity)
  async remove(request: RpcRequest<typeof DeleteActivity>) {
    if (!(await this.activities.remove(request.id))) throw RpcFailure.notFound('Mission not found');
    return { id: request.id };
  }
}

/** A stored mission as the API answers it (the contract's Activity, derived from the row). */
function toActivity(row: ActivityRow): Activity {
  return answerOf(Activity, row);
}
