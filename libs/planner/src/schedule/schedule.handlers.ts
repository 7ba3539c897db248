import { Controller } from '@nestjs/common';
import {
  ApplyWeeklyTemplates,
  CompleteScheduleItem,
  CreateWeeklyTemplate,
  DeleteWeeklyTemplate,
  GetSchedule,
  ListWeeklyTemplates,
  ListWeeklyTemplatesForDay,
  UpdateWeeklyTemplate,
  dayOfWeekOf,
  type RpcRequest,
  ScheduleItem,
  WeeklyTemplate,
} from '@vault/contracts';
import { answerOf, Handles, RpcFailure } from '@vault/transport';
import type { ScheduleItemRow } from '../schema/schedule-items.table.js';
import type { WeeklyTemplateRow } from '../schema/weekly-templates.table.js';
import { ScheduleRepository } from './schedule.repository.js';
import { WeeklyTemplatesRepository } from './weekly-templates.repository.js';

/** Weekly templates and the day's schedule made from them. */
@Controller()
export class ScheduleHandlers {
  constructor(
    private readonly templates: WeeklyTemplatesRepository,
    private readonly schedule: ScheduleRepository,
  ) {}

  @Handles(ListWeeklyTemplates)
  async listTemplates(): Promise<WeeklyTemplate[]> {
    return (await this.templates.list()).map(toWeeklyTemplate);
  }

  @Handles(ListWeeklyTemplatesForDay)
  async listTemplatesForDay(request: RpcRequest<typeof ListWeeklyTemplatesForDay>): Promise<WeeklyTemplate[]> {
    return (await this.templates.listForDay(request.dayOfWeek)).map(toWeeklyTemplate);
  }

  @Handles(CreateWeeklyTemplate)
  async createTemplate(request: RpcRequest<typeof CreateWeeklyTemplate>): Promise<WeeklyTemplate> {
    return toWeeklyTemplate(await this.templates.create(request));
  }

  @Handles(UpdateWeeklyTemplate)
  async updateTemplate(request: RpcRequest<typeof UpdateWeeklyTemplate>): Promise<WeeklyTemplate> {
    const { id, ...values } = request;
    const row = await this.templates.update(id, values);
    if (!row) throw RpcFailure.notFound('Template not found');
    return toWeeklyTemplate(row);
  }

  @Handles(DeleteWeeklyTemplate)
  async deleteTemplate(request: RpcRequest<typeof DeleteWeeklyTemplate>) {
    if (!(await this.templates.remove(request.id))) throw RpcFailure.notFound('Template not found');
    return { id: request.id };
  }

  @Handles(GetSchedule)
  async day(request: RpcRequest<typeof GetSchedule>): Promise<ScheduleItem[]> {
    return (await this.schedule.forDate(request.date)).map(toScheduleItem);
  }

  @Handles(ApplyWeeklyTemplates)
  async apply(request: RpcRequest<typeof ApplyWeeklyTemplates>): Promise<ScheduleItem[]> {
    await this.schedule.addFromTemplates(request.date, await this.templates.listForDay(dayOfWeekOf(request.date)));
    return (await this.schedule.forDate(request.date)).map(toScheduleItem);
  }

  @Handles(CompleteScheduleItem)
  async complete(request: RpcRequest<typeof CompleteScheduleItem>): Promise<ScheduleItem> {
    const item = await this.schedule.complete(request.id);
    if (!item) throw RpcFailure.notFound('Schedule item not found');
    return toScheduleItem(item);
  }
}

/** A stored weekly template as the API answers it (the contract's WeeklyTemplate, derived from the row). */
function toWeeklyTemplate(row: WeeklyTemplateRow): WeeklyTemplate {
  return answerOf(WeeklyTemplate, row);
}

/** A stored schedule item as the API answers it (the contract's ScheduleItem, derived from the row). */
function toScheduleItem(row: ScheduleItemRow): ScheduleItem {
  return answerOf(ScheduleItem, row);
}
