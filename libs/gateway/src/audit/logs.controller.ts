import { Controller, Get, Query } from '@nestjs/common';
import { ListAccessLogs } from '@vault/contracts';
import { RpcClient } from '@vault/transport';

@Controller('api/logs')
export class LogsController {
  constructor(private readonly rpc: RpcClient) {}

  /** Newest first: the latest 500 unless `?limit=` (up to 5000) and `?offset=` ask for more. */
  @Get()
  list(@Query('limit') limit?: string, @Query('offset') offset?: string) {
    return this.rpc.forward(ListAccessLogs, { limit, offset });
  }
}
