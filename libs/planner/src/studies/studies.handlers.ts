import { Controller } from '@nestjs/common';
import { CompleteStudy, CreateStudy, DeleteStudy, ListCompletedStudies, ListStudies, type RpcRequest, Study } from '@vault/contracts';
import { answerOf, Handles, RpcFailure } from '@vault/transport';
import type { StudyRow } from '../schema/studies.table.js';
import { StudiesRepository } from './studies.repository.js';

/** Studies: active on the dashboard, then archived when completed. */
@Controller()
export class StudiesHandlers {
  constructor(private readonly studies: StudiesRepository) {}

  @Handles(ListStudies)
  async active(): Promise<Study[]> {
    return (await this.studies.active()).map(toStudy);
  }

  @Handles(ListCompletedStudies)
  async completed(): Promise<Study[]> {
    return (await this.studies.completed()).map(toStudy);
  }

  @Handles(CreateStudy)
  async create(request: RpcRequest<typeof CreateStudy>): Promise<Study> {
    return toStudy(await this.studies.create(request));
  }

  @Handles(CompleteStudy)
  async complete(request: RpcRequest<typeof CompleteStudy>): Promise<Study> {
    const row = await this.studies.complete(request.id);
    if (!row) throw RpcFailure.notFound('Study not found');
    return toStudy(row);
  }

  @Handles(DeleteStudy)
  async remove(request: RpcRequest<typeof DeleteStudy>) {
    if (!(await this.studies.remove(request.id))) throw RpcFailure.notFound('Study not found');
    return { id: request.id };
  }
}

/** A stored study as the API answers it (the contract's Study, derived from the row). */
function toStudy(row: StudyRow): Study {
  return answerOf(Study, row);
}
