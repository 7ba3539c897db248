import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceDatabaseModule } from '@vault/persistence';
import { PLANNER_DB, PLANNER_MIGRATIONS } from './database.js';
import { TargetsHandlers } from './targets/targets.handlers.js';
import { TargetsRepository } from './targets/targets.repository.js';

export interface PlannerOptions {
  /** False when a deploy job applies migrations before the service starts. */
  migrate: boolean;
}

/** planner-svc: targets, and later templates, schedule, missions, studies and balance. */
@Module({})
export class PlannerModule {
  static forRoot(options: PlannerOptions): DynamicModule {
    return {
      module: PlannerModule,
      imports: [
        ServiceDatabaseModule.forService({
          token: PLANNER_DB,
          schema: 'planner',
          migrationsFolder: PLANNER_MIGRATIONS,
          migrate: options.migrate,
        }),
      ],
      controllers: [TargetsHandlers],
      providers: [TargetsRepository],
    };
  }
}
