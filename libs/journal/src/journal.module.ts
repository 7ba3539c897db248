import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceDatabaseModule } from '@vault/persistence';
import { DataKeyService, MASTER_KEY } from './crypto/data-key.service.js';
import { fixedMasterKey, masterKeyFile } from './crypto/master-key-source.js';
import { JournalEraseHandlers } from './erase/journal-erase.handlers.js';
import { JournalArchiveHandlers } from './archive/journal-archive.handlers.js';
import { ForeignEntriesHandlers } from './import/foreign-entries.handlers.js';
import { JOURNAL_DB, JOURNAL_MIGRATIONS } from './database.js';
import { EntriesRepository } from './entries/entries.repository.js';
import { JournalHandlers } from './entries/journal.handlers.js';
import { JournalService } from './entries/journal.service.js';
import { JournalSearchService } from './search/journal-search.service.js';
import { SearchFeedRepository } from './search/search-feed.repository.js';

export interface JournalOptions {
  migrate: boolean;
  /**
   * What wraps the data key: 32 bytes from VAULT_MASTER_KEY, or (embedded
   * mode) the path of the key file beside the data, which an erase deletes.
   */
  masterKey: Buffer | { file: string };
}

/** journal-svc: entries encrypted at rest under a data key the database holds only wrapped. */
@Module({})
export class JournalModule {
  static forRoot(options: JournalOptions): DynamicModule {
    return {
      module: JournalModule,
      imports: [ServiceDatabaseModule.forService({ token: JOURNAL_DB, migrations: JOURNAL_MIGRATIONS, migrate: options.migrate })],
      controllers: [JournalHandlers, JournalEraseHandlers, JournalArchiveHandlers, ForeignEntriesHandlers],
      providers: [
        { provide: MASTER_KEY, useValue: Buffer.isBuffer(options.masterKey) ? fixedMasterKey(options.masterKey) : masterKeyFile(options.masterKey.file) },
        DataKeyService,
        EntriesRepository,
        JournalService,
        SearchFeedRepository,
        JournalSearchService,
      ],
    };
  }
}
