import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { GatewayModule, SelfDestructService, WebApp, configureHttpServer, createHttpAdapter } from '@vault/gateway';
import { DATABASE_READINESS, PersistenceModule, openEmbeddedDatabase, type ConnectionOptions, type ServiceMigrations } from '@vault/persistence';
import { HealthModule, ObservabilityModule } from '@vault/platform';
import { EventsModule, InProcessBroker, TransportModule, microserviceOptions } from '@vault/transport';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MetricsEndpointModule, metricsUrlOf } from './metrics-endpoint.js';
import { processLogger } from './nest-logger.js';
import { processObservability } from './observability.js';
import { gatewayOptions } from './process-options.js';
import type { VaultConfig } from './vault-config.js';

export interface EmbeddedOptions {
  /** Every service's migrations: lets the first start import a PGlite folder of a vault before ADR 0009. */
  pgliteImport?: ServiceMigrations[];
  /**
   * A hold on the same data folder's server taken before the vault's modules
   * were loaded (apps/vault's early-database.ts): its start's messages are
   * logged here, and it is released once the vault holds the server itself.
   */
  startedEarly?: { messages: readonly string[]; release(): Promise<void> };
}

/**
 * The embedded mode: the gateway and every service in ONE process, over the
 * in-process transport, with the vault's own PostgreSQL server on
 * VAULT_DATA_DIR/postgres (ADR 0009) and sessions in memory. The domain
 * modules are the same ones the services run.
 */
export async function startEmbedded(config: VaultConfig, domainModules: DynamicModule[], options: EmbeddedOptions = {}): Promise<NestFastifyApplication> {
  const { logger, nestLogger } = processLogger('vault', config.LOG_LEVEL);
  const database: ConnectionOptions = {
    kind: 'embedded',
    dataDir: resolve(config.VAULT_DATA_DIR),
    pgliteImport: options.pgliteImport,
    log: (message) => logger.info(message),
  };
  // The server starts (a PGlite folder is imported) before any module exists; this hold keeps it up until the app holds it.
  const early = await openEmbeddedDatabase(database).finally(() => {
    for (const message of options.startedEarly?.messages ?? []) logger.info(message);
    return options.startedEarly?.release();
  });
  // Metrics only with METRICS_PORT (off by default), on 127.0.0.1 unless METRICS_HOST says otherwise.
  const metricsPort = config.METRICS_PORT;
  const observability = await processObservability(config, 'vault', metricsPort !== undefined);
  const broker = new InProcessBroker();
  const transport = { kind: 'in-process' as const, broker, timeoutMs: config.RPC_TIMEOUT_MS };
  const web = existsSync(join(config.VAULT_WEB_DIST, 'index.html')) ? new WebApp(config.VAULT_WEB_DIST) : undefined;
  if (!web) logger.warn(`No web app at ${config.VAULT_WEB_DIST}: serving the API only`);

  @Module({
    imports: [
      ObservabilityModule.forRoot(observability),
      MetricsEndpointModule.forRoot({ host: config.METRICS_HOST, port: metricsPort }),
      // The five domain modules share its one pool; app.close() stops the server after them.
      PersistenceModule.forRoot(database),
      TransportModule.forClient(transport, 'gateway'),
      EventsModule.forRoot({ kind: 'in-process' }),
      GatewayModule.forRoot(gatewayOptions(config, { webDistDir: web?.distDir }), web),
      HealthModule.register([DATABASE_READINESS]),
      ...domainModules,
    ],
  })
  class EmbeddedVaultModule {}

  const app = await NestFactory.create<NestFastifyApplication>(EmbeddedVaultModule, createHttpAdapter({ trustedProxies: config.VAULT_TRUSTED_PROXIES }), {
    logger: nestLogger,
    abortOnError: false,
  }).finally(() => early.release());
  await configureHttpServer(app, logger, web);
  app.connectMicroservice(microserviceOptions(transport, 'vault', observability));
  app.enableShutdownHooks();
  // A start that fails (a bad password, say) must stop the database server for the next try.
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
  logger.info({ url: `http://${config.HOST}:${config.PORT}`, metrics: metricsUrlOf(app) }, 'Vault is open (embedded mode)');
  return app;
}
