import { Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CountJournal, CreateJournalEntry, DeleteJournalEntry, ListJournal, UpdateJournalEntry } from '@vault/contracts';
import { RpcClient } from '@vault/transport';
import { JsonBody } from '../http/json-body.decorator.js';

@Controller('api/journal')
export class JournalController {
  constructor(private readonly rpc: RpcClient) {}

  /** The spec's array, newest first; `?limit=&offset=` reads one page of it. */
  @Get()
  list(@Query('limit') limit?: string, @Query('offset') offset?: string) {
    return this.rpc.forward(ListJournal, { limit, offset });
  }

  /** The dashboard's count, without downloading every entry. */
  @Get('count')
  count() {
    return this.rpc.send(CountJournal, {});
  }

  @Post()
  create(@JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(CreateJournalEntry, body);
  }

  @Patch(':id')
  update(@Param('id') id: string, @JsonBody() body: Record<string, unknown>) {
    return this.rpc.forward(UpdateJournalEntry, { ...body, id });
  }

  @Delete(':id')
  remove(@Param('id') id: string) {
    return this.rpc.forward(DeleteJournalEntry, { id });
  }
}
