import { Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { JournalImporter, VaultExporter, VaultImporter } from '@vault/archive';
import { ArchiveBodies } from './archive/archive-bodies.js';
import { ArchiveController } from './archive/archive.controller.js';
import { ATTEMPT_COUNTER, MemoryAttemptCounter, RedisAttemptCounter } from './auth/login-rate-limit.js';
import { LocalStrategy } from './auth/local.strategy.js';
import { AccessRecorder } from './audit/access-recorder.js';
import { REDIS, connectRedis } from './session/redis.js';
import { SessionController } from './auth/session.controller.js';
import { GATEWAY_OPTIONS, type GatewayOptions } from './gateway.options.js';
import { ErrorFilter } from './http/error.filter.js';
import { WebApp } from './http/web-app.js';
import { ObjectsController } from './media/objects.controller.js';
import { UploadsController } from './media/uploads.controller.js';
import { MemorySessionStore } from './session/memory-session.store.js';
import { RedisSessionStore } from './session/redis-session.store.js';
import { SESSION_STORE, type SessionStore } from './session/session.store.js';
import { SystemController } from './system/system.controller.js';
import { LoginGuard } from './auth/login.guard.js';
import { ReauthenticationController } from './auth/reauthentication.controller.js';
import { RecentAuthentication, RecentAuthenticationGuard } from './auth/recent-authentication.js';
import { SecondFactorCheck } from './auth/second-factor-check.js';
import { SecondFactorController } from './auth/second-factor.controller.js';
import { SecondStepController } from './auth/second-step.controller.js';
import { SessionIssuer } from './auth/session-issuer.js';
import { SignInAttempts } from './auth/sign-in-attempts.js';
import { Clock } from './session/clock.js';
import { PENDING_SIGN_INS, pendingSignInStore, type PendingSignInStore } from './session/pending-sign-in.store.js';
import { IMPORT_PROGRESS, importProgressStore, type ImportProgressStore } from './archive/import-progress.store.js';
import { AccessCheck } from './vault/access-check.js';
import { AccessGuard } from './vault/access.guard.js';
import { CurrentUser } from './auth/current-user.js';
import { SelfDestructService } from './vault/self-destruct.service.js';
import { SettingsController } from './vault/settings.controller.js';
import { VaultStateCache } from './vault/vault-state.cache.js';

class SessionStoreCloser implements OnApplicationShutdown {
  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(PENDING_SIGN_INS) private readonly pendingSignIns: PendingSignInStore,
    @Inject(IMPORT_PROGRESS) private readonly importProgress: ImportProgressStore,
    @Inject(REDIS) private readonly redis: Redis | undefined,
  ) {}
  async onApplicationShutdown() {
    await this.store.close();
    await this.pendingSignIns.close();
    await this.importProgress.close();
    this.redis?.disconnect();
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
        SecondStepController,
        ReauthenticationController,
        SecondFactorController,
        SystemController,
        SettingsController,
        UploadsController,
        ObjectsController,
        ArchiveController,
      ],
      providers: [
        { provide: GATEWAY_OPTIONS, useValue: options },
        // Only the distributed gateway has a Redis URL; only it loads ioredis (session/redis.ts).
        { provide: REDIS, useFactory: async () => (options.redisUrl ? await connectRedis(options.redisUrl) : undefined) },
        {
          provide: SESSION_STORE,
          useFactory: (redis?: Redis): SessionStore => (redis ? new RedisSessionStore(redis, ttlMs) : new MemorySessionStore(ttlMs)),
          inject: [REDIS],
        },
        {
          provide: ATTEMPT_COUNTER,
          useFactory: (redis?: Redis) => (redis ? new RedisAttemptCounter(redis) : new MemoryAttemptCounter()),
          inject: [REDIS],
        },
        { provide: PENDING_SIGN_INS, useFactory: pendingSignInStore, inject: [REDIS] },
        { provide: IMPORT_PROGRESS, useFactory: importProgressStore, inject: [REDIS] },
        AccessRecorder,
        Clock,
        RecentAuthentication,
        RecentAuthenticationGuard,
        SignInAttempts,
        SecondFactorCheck,
        SessionIssuer,
        SessionStoreCloser,
        LocalStrategy,
        LoginGuard,
        VaultStateCache,
        SelfDestructService,
        VaultExporter,
        VaultImporter,
        JournalImporter,
        ArchiveBodies,
        AccessCheck,
        // The routes that only forward a request, and GET /api/user, are Fastify's own, with the same check (configureHttpServer).
        CurrentUser,
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_FILTER, useFactory: () => new ErrorFilter(web) },
      ],
      exports: [SESSION_STORE],
    };
  }
}
