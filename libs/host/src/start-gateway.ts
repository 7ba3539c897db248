import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { GatewayModule, SelfDestructService, WebApp, configureHttpServer, createHttpAdapter } from '@vault/gateway';
import { HealthModule, ObservabilityModule } from '@vault/platform';
import { EVENTS_READINESS, EventsModule, TRANSPORT_READINESS, TransportModule } from '@vault/transport';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MetricsEndpointModule, metricsUrlOf } from './metrics-endpoint.js';
import { processLogger } from './nest-logger.js';
import { processObservability } from './observability.js';
import { gatewayOptions } from './process-options.js';
import { requireRedis, type VaultConfig } from './vault-config.js';

/** The distributed mode's gateway: HTTP in front, NATS to the services, sessions in Redis. */
export async function startGateway(config: VaultConfig): Promise<NestFastifyApplication> {
  const { logger, nestLogger } = processLogger('gateway', config.LOG_LEVEL);
  const redisUrl = requireRedis(config);
  const web = existsSync(join(config.VAULT_WEB_DIST, 'index.html')) ? new WebApp(config.VAULT_WEB_DIST) : undefined;
  if (!web) logger.warn(`No web app at ${config.VAULT_WEB_DIST}: serving the API only`);
  const metricsPort = config.METRICS_PORT;
  const observability = await processObservability(config, 'gateway', metricsPort !== undefined);

  @Module({
    imports: [
      ObservabilityModule.forRoot(observability),
      // Metrics on a port of their own, never the public one.
      MetricsEndpointModule.forRoot({ host: config.METRICS_HOST, port: metricsPort }),
      TransportModule.forClient({ kind: 'nats', url: config.NATS_URL, timeoutMs: config.RPC_TIMEOUT_MS }, 'gateway'),
      EventsModule.forRoot({ kind: 'jetstream', url: config.NATS_URL, consumerName: 'gateway' }),
      GatewayModule.forRoot(gatewayOptions(config, { redisUrl, webDistDir: web?.distDir }), web),
      // Not ready while it cannot reach the broker: no route could reach a service, no access event would leave.
      HealthModule.register([TRANSPORT_READINESS, EVENTS_READINESS], { stopDelayMs: config.VAULT_STOP_DELAY_SECONDS * 1000 }),
    ],
  })
  class GatewayProcessModule {}

  const app = await NestFactory.create<NestFastifyApplication>(GatewayProcessModule, createHttpAdapter({ trustedProxies: config.VAULT_TRUSTED_PROXIES }), {
    logger: nestLogger,
    abortOnError: false,
  });
  const bucket = config.S3_PUBLIC_ENDPOINT ?? config.S3_ENDPOINT;
  await configureHttpServer(app, logger, web, bucket ? [new URL(bucket).origin] : []);
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  logger.info({ url: `http://${config.HOST}:${config.PORT}`, metrics: metricsUrlOf(app) }, 'Gateway listening');
  // A self-destruct whose gateway died before every service had confirmed (or
  // before the kept event left) is driven again, in the background: services
  // that are down erase from the kept event when they return.
  void app
    .get(SelfDestructService)
    .finishInterruptedErasure()
    .then((missing) => missing.length > 0 && logger.warn(`The vault is destroyed; ${missing.join(', ')} will erase when back`))
    .catch((error: Error) => logger.warn(`Could not check for an interrupted self-destruct: ${error.message}`));
  return app;
}
