import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DATABASE_READINESS, PersistenceModule } from '@vault/persistence';
import { HealthModule, ObservabilityModule, type Logger, type ReadinessCheck } from '@vault/platform';
import { EVENTS_READINESS, EventsModule, TRANSPORT_SERVER, TRANSPORT_SERVER_READINESS, TransportServerModule } from '@vault/transport';
import type { CustomTransportStrategy } from '@nestjs/microservices';
import { serveMetricsOnHealthPort } from './metrics-endpoint.js';
import { processLogger } from './nest-logger.js';
import { processObservability } from './observability.js';
import { databaseUrlFor, type ServiceName, type VaultConfig } from './vault-config.js';

/** Connections to its database a service opens before it joins its queue group, and keeps: the requests it can then take at once without opening one. */
const READY_CONNECTIONS = 3;

/**
 * One service of the distributed mode: its handlers on NATS (in a queue group
 * named after it), its own database, and a small HTTP port for health and
 * metrics only.
 */
export async function startService(config: VaultConfig, name: ServiceName, domainModule: DynamicModule): Promise<NestFastifyApplication> {
  const { logger, nestLogger } = processLogger(`${name}-svc`, config.LOG_LEVEL);
  const transport = { kind: 'nats' as const, url: config.NATS_URL, timeoutMs: config.RPC_TIMEOUT_MS };
  const observability = await processObservability(config, `${name}-svc`, true);
  const readyConnections = Math.min(READY_CONNECTIONS, config.DATABASE_POOL_SIZE);

  @Module({
    imports: [
      ObservabilityModule.forRoot(observability),
      PersistenceModule.forRoot({
        kind: 'postgres',
        url: databaseUrlFor(config, name),
        poolSize: config.DATABASE_POOL_SIZE,
        keepOpen: readyConnections,
        // A busy replica (a node starting pods beside it) queues for its pool: it waits for a
        // connection as long as the gateway waits for its answer, never less than the prompt 2 s.
        connectionWaitMs: Math.max(2000, config.RPC_TIMEOUT_MS),
      }),
      TransportServerModule.forServer(transport, `${name}-svc`),
      EventsModule.forRoot({ kind: 'jetstream', url: config.NATS_URL, consumerName: `${name}-svc` }),
      // Not ready while it cannot reach the broker: requests would not arrive, events would not leave.
      HealthModule.register([DATABASE_READINESS, TRANSPORT_SERVER_READINESS, EVENTS_READINESS], { stopDelayMs: config.VAULT_STOP_DELAY_SECONDS * 1000 }),
      domainModule,
    ],
  })
  class ServiceProcessModule {}

  const app = await NestFactory.create<NestFastifyApplication>(ServiceProcessModule, new FastifyAdapter(), {
    logger: nestLogger,
    abortOnError: false,
  });
  if (observability.metrics) serveMetricsOnHealthPort(app, observability.metrics);
  app.connectMicroservice({ strategy: app.get<CustomTransportStrategy>(TRANSPORT_SERVER) });
  app.enableShutdownHooks();
  // Migrations and the events kept while this service was away (a self-destruct) come before serving.
  await app.init();
  await untilDatabaseAnswers(app.get<ReadinessCheck>(DATABASE_READINESS), readyConnections, logger);
  await app.startAllMicroservices();
  await app.listen(config.PORT, config.HOST);
  logger.info({ health: `http://${config.HOST}:${config.PORT}/health/ready` }, `${name}-svc serving on NATS`);
  return app;
}

/**
 * A replica takes requests from its queue group the moment it joins, whatever
 * its readiness says. It joins once its database answers on READY_CONNECTIONS
 * connections at once, kept in its pool: otherwise its first requests each open
 * one, and on a busy node (a rolling upgrade starting six pods at once) a new
 * connection can take longer than the pool waits for it, failing them together.
 */
async function untilDatabaseAnswers(database: ReadinessCheck, connections: number, logger: Logger): Promise<void> {
  for (;;) {
    try {
      await Promise.all(Array.from({ length: connections }, () => database.check()));
      return;
    } catch (error) {
      logger.warn(`The database does not answer (${(error as Error).message}): not joining the queue group yet`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
