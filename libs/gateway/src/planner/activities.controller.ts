import { Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { CreateActivity, DeleteActivity, ListActivities } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { JsonBody } from '../http/json-body.decorator.js';

/** Custom missions of the mission generator. */
@Controller('api/activities')
export class ActivitiesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list() {
    return this.rpc.send(ListActivities, {});
  }

  @Post()
  create(@JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(CreateActivity, body);
  }

  @Delete(':id')
  remove(@Param('id') id: string) {
    return this.rpc.forward(DeleteActivity, { id });
  }
}
