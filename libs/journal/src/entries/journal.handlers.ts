import { Controller } from '@nestjs/common';
import { CountJournal, CreateJournalEntry, DeleteJournalEntry, ListJournal, UpdateJournalEntry, type JournalEntry, type RpcRequest } from '@vault/contracts';
import { Handles, RpcFailure } from '@vault/transport';
import { JournalService } from './journal.service.js';

@Controller()
export class JournalHandlers {
  constructor(private readonly journal: JournalService) {}

  @Handles(ListJournal)
  list(request: RpcRequest<typeof ListJournal>): Promise<JournalEntry[]> {
    return this.journal.list(request);
  }

  @Handles(CountJournal)
  async count() {
    return { count: await this.journal.count() };
  }

  @Handles(CreateJournalEntry)
  create(request: RpcRequest<typeof CreateJournalEntry>): Promise<JournalEntry> {
    return this.journal.create(request);
  }

  @Handles(UpdateJournalEntry)
  async update(request: RpcRequest<typeof UpdateJournalEntry>): Promise<JournalEntry> {
    const entry = await this.journal.update(request.id, request);
    if (!entry) throw RpcFailure.notFound('Journal entry not found');
    return entry;
  }

  @Handles(DeleteJournalEntry)
  async remove(request: RpcRequest<typeof DeleteJournalEntry>) {
    if (!(await this.journal.remove(request.id))) throw RpcFailure.notFound('Journal entry not found');
    return { id: request.id };
  }
}
