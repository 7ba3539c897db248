import { Controller } from '@nestjs/common';
import {
  CountJournal,
  CreateJournalEntry,
  DeleteJournalEntry,
  ListJournal,
  OnThisDay,
  SearchJournal,
  UpdateJournalEntry,
  type JournalEntry,
  type RpcRequest,
} from '@vault/contracts';
import { INVALID_PARAMETER_VALUE, sqlStateOf } from '@vault/persistence';
import { Handles, RpcFailure } from '@vault/transport';
import { JournalSearchService } from '../search/journal-search.service.js';
import { JournalService } from './journal.service.js';

@Controller()
export class JournalHandlers {
  constructor(
    private readonly journal: JournalService,
    private readonly search: JournalSearchService,
  ) {}

  @Handles(ListJournal)
  list(request: RpcRequest<typeof ListJournal>): Promise<JournalEntry[]> {
    return this.journal.list(request);
  }

  @Handles(SearchJournal)
  searchEntries(request: RpcRequest<typeof SearchJournal>): Promise<JournalEntry[]> {
    return this.search.search(request.query, request);
  }

  @Handles(OnThisDay)
  async onThisDay(request: RpcRequest<typeof OnThisDay>) {
    try {
      return await this.journal.onThisDay(request.date, request.timeZone);
    } catch (error) {
      // A zone the runtime knows but the database does not (their time zone lists differ a little).
      if (sqlStateOf(error) === INVALID_PARAMETER_VALUE) throw RpcFailure.badRequest('timeZone: must be a time zone name such as Europe/Paris');
      throw error;
    }
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
