import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceDatabaseModule } from '@vault/persistence';
import { PLANNER_DB, PLANNER_MIGRATIONS } from './database.js';
import { PlannerEraseHandlers } from './erase/planner-erase.handlers.js';
import { PlannerArchiveHandlers } from './archive/planner-archive.handlers.js';
import { PlannerArchiveRepository } from './archive/planner-archive.repository.js';
import { BalanceHandlers } from './balance/balance.handlers.js';
import { BalanceRepository } from './balance/balance.repository.js';
import { ActivitiesHandlers } from './missions/activities.handlers.js';
import { ActivitiesRepository } from './missions/activities.repository.js';
import { ScheduleHandlers } from './schedule/schedule.handlers.js';
import { ScheduleRepository } from './schedule/schedule.repository.js';
import { WeeklyTemplatesRepository } from './schedule/weekly-templates.repository.js';
import { StudiesHandlers } from './studies/studies.handlers.js';
import { StudiesRepository } from './studies/studies.repository.js';
import { TargetsHandlers } from './targets/targets.handlers.js';
import { TargetsRepository } from './targets/targets.repository.js';

export interface PlannerOptions {
  /** False when a deploy job applies migrations before the service starts. */
  migrate: boolean;
}

/** planner-svc: targets, weekly templates and the day's schedule, custom missions, studies and the balance. */
@Module({})
export class PlannerModule {
  static forRoot(options: PlannerOptions): DynamicModule {
    return {
      module: PlannerModule,
      imports: [
        ServiceDatabaseModule.forService({
          token: PLANNER_DB,
          migrations: PLANNER_MIGRATIONS,
          migrate: options.migrate,
        }),
      ],
      controllers: [TargetsHandlers, ScheduleHandlers, ActivitiesHandlers, StudiesHandlers, BalanceHandlers, PlannerEraseHandlers, PlannerArchiveHandlers],
      providers: [
        TargetsRepository,
        WeeklyTemplatesRepository,
        ScheduleRepository,
        ActivitiesRepository,
        StudiesRepository,
        BalanceRepository,
        PlannerArchiveRepository,
      ],
    };
  }
}
