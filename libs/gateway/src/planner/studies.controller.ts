import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CompleteStudy, CreateStudy, DeleteStudy, ListCompletedStudies, ListStudies } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { JsonBody } from '../http/json-body.decorator.js';

@Controller('api/studies')
export class StudiesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  active() {
    return this.rpc.send(ListStudies, {});
  }

  @Get('completed')
  completed() {
    return this.rpc.send(ListCompletedStudies, {});
  }

  @Post()
  create(@JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(CreateStudy, body);
  }

  @Patch(':id')
  complete(@Param('id') id: string, @JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(CompleteStudy, { ...body, id });
  }

  @Delete(':id')
  remove(@Param('id') id: string) {
    return this.rpc.forward(DeleteStudy, { id });
  }
}
