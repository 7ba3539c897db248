import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceDatabaseModule } from '@vault/persistence';
import { AccessLogHandlers } from './access-log/access-log.handlers.js';
import { AccessLogRepository } from './access-log/access-log.repository.js';
import { AuditArchiveHandlers } from './archive/audit-archive.handlers.js';
import { AuditEraseHandlers } from './erase/audit-erase.handlers.js';
import { AUDIT_DB, AUDIT_MIGRATIONS } from './database.js';

/** audit-svc: the access log, fed by access events. */
@Module({})
export class AuditModule {
  static forRoot(options: { migrate: boolean }): DynamicModule {
    return {
      module: AuditModule,
      imports: [ServiceDatabaseModule.forService({ token: AUDIT_DB, migrations: AUDIT_MIGRATIONS, migrate: options.migrate })],
      controllers: [AccessLogHandlers, AuditEraseHandlers, AuditArchiveHandlers],
      providers: [AccessLogRepository],
    };
  }
}
