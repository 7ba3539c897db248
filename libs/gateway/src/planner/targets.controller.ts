import { Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { CreateTarget, DeleteTarget, ListTargets, UpdateTarget } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { JsonBody } from '../http/json-body.decorator.js';

@Controller('api/targets')
export class TargetsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list() {
    return this.rpc.send(ListTargets, {});
  }

  @Post()
  create(@JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(CreateTarget, body);
  }

  @Patch(':id')
  update(@Param('id') id: string, @JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(UpdateTarget, { ...body, id });
  }

  @Delete(':id')
  remove(@Param('id') id: string) {
    return this.rpc.forward(DeleteTarget, { id });
  }
}
