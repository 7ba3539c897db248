import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApplyWeeklyTemplates,
  CompleteScheduleItem,
  CreateWeeklyTemplate,
  DeleteWeeklyTemplate,
  GetSchedule,
  ListWeeklyTemplates,
  ListWeeklyTemplatesForDay,
  UpdateWeeklyTemplate,
} from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { JsonBody } from '../http/json-body.decorator.js';

@Controller('api/weekly-templates')
export class WeeklyTemplatesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list() {
    return this.rpc.send(ListWeeklyTemplates, {});
  }

  @Get(':dayOfWeek')
  forDay(@Param('dayOfWeek') dayOfWeek: string) {
    return this.rpc.forward(ListWeeklyTemplatesForDay, { dayOfWeek });
  }

  @Post()
  create(@JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(CreateWeeklyTemplate, body);
  }

  @Patch(':id')
  update(@Param('id') id: string, @JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(UpdateWeeklyTemplate, { ...body, id });
  }

  @Delete(':id')
  remove(@Param('id') id: string) {
    return this.rpc.forward(DeleteWeeklyTemplate, { id });
  }
}

@Controller('api/schedule')
export class ScheduleController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':date')
  day(@Param('date') date: string) {
    return this.rpc.forward(GetSchedule, { date });
  }

  @Post('apply-weekly-template')
  apply(@JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(ApplyWeeklyTemplates, body);
  }

  @Patch(':id')
  complete(@Param('id') id: string, @JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(CompleteScheduleItem, { ...body, id });
  }
}
