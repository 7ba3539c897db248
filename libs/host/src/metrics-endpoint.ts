import { Inject, Module, type DynamicModule, type INestApplication, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OBSERVABILITY, type Observability, type VaultMetrics } from '@vault/platform';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const METRICS_PATH = '/metrics';

/** A service's /metrics, on its health port (which only the cluster reaches). */
export function serveMetricsOnHealthPort(app: NestFastifyApplication, metrics: VaultMetrics): void {
  app
    .getHttpAdapter()
    .getInstance()
    .get(METRICS_PATH, async (_request, reply) => reply.type(metrics.contentType).send(await metrics.text()));
}

const METRICS_ENDPOINT_OPTIONS = Symbol('METRICS_ENDPOINT_OPTIONS');

export interface MetricsEndpointOptions {
  /** METRICS_HOST: 127.0.0.1 unless the operator opens it (the chart: 0.0.0.0, for the cluster's Prometheus). */
  host: string;
  /** METRICS_PORT; 0 picks a free one (tests); none, no endpoint. */
  port?: number;
}

/**
 * The gateway's and the embedded vault's /metrics, on a port of its own: the
 * public port serves the owner and the internet, which must see no metrics.
 * A plain Node server: it answers one path and loads nothing more.
 */
export class MetricsEndpoint implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: Server;
  /** Where it listens, once it does: http://host:port/metrics. */
  url?: string;

  constructor(
    @Inject(OBSERVABILITY) private readonly observability: Observability,
    @Inject(METRICS_ENDPOINT_OPTIONS) private readonly options: MetricsEndpointOptions,
  ) {}

  async onApplicationBootstrap() {
    const metrics = this.observability.metrics;
    if (!metrics || this.options.port === undefined) return;
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== METRICS_PATH) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
        return;
      }
      metrics.text().then(
        (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
        (error: Error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${error.message}`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => resolve());
    });
    this.server = server;
    const { port } = server.address() as AddressInfo;
    const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
    this.url = `http://${host}:${port}${METRICS_PATH}`;
  }

  async onApplicationShutdown() {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

@Module({})
export class MetricsEndpointModule {
  static forRoot(options: MetricsEndpointOptions): DynamicModule {
    return {
      module: MetricsEndpointModule,
      providers: [{ provide: METRICS_ENDPOINT_OPTIONS, useValue: options }, MetricsEndpoint],
      exports: [MetricsEndpoint],
    };
  }
}

/** Where an application serves its metrics apart from its public port (METRICS_PORT), if it does. */
export function metricsUrlOf(app: INestApplication): string | undefined {
  return app.get(MetricsEndpoint, { strict: false }).url;
}
