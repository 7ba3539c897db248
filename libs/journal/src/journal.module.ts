import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceDatabaseModule } from '@vault/persistence';
import { DataKeyService, MASTER_KEY } from './crypto/data-key.service.js';
import { JournalEraseHandlers } from './erase/journal-erase.handlers.js';
import { JOURNAL_DB, JOURNAL_MIGRATIONS } from './database.js';
import { EntriesRepository } from './entries/entries.repository.js';
import { JournalHandlers } from './entries/journal.handlers.js';
import { JournalService } from './entries/journal.service.js';

export interface JournalOptions {
  migrate: boolean;
  /** 32 bytes from VAULT_MASTER_KEY or the embedded key file; it wraps the data key. */
  masterKey: Buffer;
}

/** journal-svc: entries encrypted at rest under a data key the database holds only wrapped. */
@Module({})
export class JournalModule {
  static forRoot(options: JournalOptions): DynamicModule {
    return {
      module: JournalModule,
      imports: [
        ServiceDatabaseModule.forService({ token: JOURNAL_DB, schema: 'journal', migrationsFolder: JOURNAL_MIGRATIONS, migrate: options.migrate }),
      ],
      controllers: [JournalHandlers, JournalEraseHandlers],
      providers: [{ provide: MASTER_KEY, useValue: options.masterKey }, DataKeyService, EntriesRepository, JournalService],
    };
  }
}
