import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { GatewayModule, SelfDestructService, WebApp, configureHttpServer, createHttpAdapter } from '@vault/gateway';
import { DATABASE_READINESS, PersistenceModule } from '@vault/persistence';
import { HealthModule } from '@vault/platform';
import { EventsModule, InProcessBroker, TransportModule, microserviceOptions } from '@vault/transport';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { processLogger } from './nest-logger.js';
import { gatewayOptions } from './process-options.js';
import type { VaultConfig } from './vault-config.js';

/**
 * The embedded mode: the gateway and every service in ONE process, over the
 * in-process transport, with PGlite files under VAULT_DATA_DIR and sessions
 * in memory. The domain modules are the same ones the services run.
 */
export async function startEmbedded(config: VaultConfig, domainModules: DynamicModule[]): Promise<NestFastifyApplication> {
  const { logger, nestLogger } = processLogger('vault', config.LOG_LEVEL);
  const broker = new InProcessBroker();
  const transport = { kind: 'in-process' as const, broker, timeoutMs: config.RPC_TIMEOUT_MS };
  const web = existsSync(join(config.VAULT_WEB_DIST, 'index.html')) ? new WebApp(config.VAULT_WEB_DIST) : undefined;
  if (!web) logger.warn(`No web app at ${config.VAULT_WEB_DIST}: serving the API only`);

  @Module({
    imports: [
      PersistenceModule.forRoot({ kind: 'pglite', dataDir: join(resolve(config.VAULT_DATA_DIR), 'pg') }),
      TransportModule.forClient(transport, 'gateway'),
      EventsModule.forRoot({ kind: 'in-process' }),
      GatewayModule.forRoot(gatewayOptions(config, { webDistDir: web?.distDir }), web),
      HealthModule.register([DATABASE_READINESS]),
      ...domainModules,
    ],
  })
  class EmbeddedVaultModule {}

  const app = await NestFactory.create<NestFastifyApplication>(
    EmbeddedVaultModule,
    createHttpAdapter({ trustedProxies: config.VAULT_TRUSTED_PROXIES }),
    { logger: nestLogger, abortOnError: false },
  );
  await configureHttpServer(app, logger, web);
  app.connectMicroservice(microserviceOptions(transport, 'vault'));
  app.enableShutdownHooks();
  // A start that fails (a bad password, say) must release the database files for the next try.
  await app.init().catch(async (error: unknown) => {
    await app.close().catch(() => undefined);
    throw error;
  });
  await app.startAllMicroservices();
  // A self-destruct that a crash cut short is finished before the first answer.
  const unfinished = await app.get(SelfDestructService).finishInterruptedErasure();
  if (unfinished.length > 0) {
    await app.close();
    throw new Error(`This vault is destroyed, but ${unfinished.join(', ')} could not finish erasing its data: not serving. Start it again to retry.`);
  }
  await app.listen(config.PORT, config.HOST);
  logger.info({ url: `http://${config.HOST}:${config.PORT}` }, 'Vault is open (embedded mode)');
  return app;
}
