import { Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { LocalStrategy } from './auth/local.strategy.js';
import { SessionController } from './auth/session.controller.js';
import { GATEWAY_OPTIONS, type GatewayOptions } from './gateway.options.js';
import { ErrorFilter } from './http/error.filter.js';
import { WebApp } from './http/web-app.js';
import { JournalController } from './journal/journal.controller.js';
import { ActivitiesController } from './planner/activities.controller.js';
import { BalanceController } from './planner/balance.controller.js';
import { ScheduleController, WeeklyTemplatesController } from './planner/schedule.controller.js';
import { StudiesController } from './planner/studies.controller.js';
import { TargetsController } from './planner/targets.controller.js';
import { MemorySessionStore } from './session/memory-session.store.js';
import { RedisSessionStore } from './session/redis-session.store.js';
import { SessionGuard } from './session/session.guard.js';
import { SESSION_STORE, type SessionStore } from './session/session.store.js';
import { SystemController } from './system/system.controller.js';

class SessionStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(SESSION_STORE) private readonly store: SessionStore) {}
  onApplicationShutdown() {
    return this.store.close();
  }
}

/** The HTTP face of the vault: sessions, guards and the `/api` routes, each forwarded to its service. */
@Module({})
export class GatewayModule {
  static forRoot(options: GatewayOptions, web?: WebApp): DynamicModule {
    const ttlMs = options.sessionTtlSeconds * 1000;
    return {
      module: GatewayModule,
      imports: [PassportModule],
      controllers: [
        SessionController,
        SystemController,
        TargetsController,
        WeeklyTemplatesController,
        ScheduleController,
        ActivitiesController,
        StudiesController,
        BalanceController,
        JournalController,
      ],
      providers: [
        { provide: GATEWAY_OPTIONS, useValue: options },
        {
          provide: SESSION_STORE,
          useFactory: (): SessionStore =>
            options.redisUrl ? new RedisSessionStore(options.redisUrl, ttlMs) : new MemorySessionStore(ttlMs),
        },
        SessionStoreCloser,
        LocalStrategy,
        { provide: APP_GUARD, useClass: SessionGuard },
        { provide: APP_FILTER, useFactory: () => new ErrorFilter(web) },
      ],
      exports: [SESSION_STORE],
    };
  }
}
