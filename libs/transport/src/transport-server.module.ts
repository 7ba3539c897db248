import { Module, type DynamicModule } from '@nestjs/common';
import { ServerNats, type CustomTransportStrategy } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { OBSERVABILITY, type Observability, type ReadinessCheck } from '@vault/platform';
import { natsReadiness } from './nats-readiness.js';
import { createServer, type TransportOptions } from './transport-options.js';

/** The server a process serves its handlers on: `app.connectMicroservice({ strategy: app.get(TRANSPORT_SERVER) })`. */
export const TRANSPORT_SERVER = Symbol('TRANSPORT_SERVER');
/** Ready while that server's own connection is up: the one the gateway's requests arrive on. */
export const TRANSPORT_SERVER_READINESS = Symbol('TRANSPORT_SERVER_READINESS');

/**
 * The serving side of the transport. The server is made here, as a provider,
 * rather than by `connectMicroservice` from options, so that readiness can
 * watch the very connection that serves requests.
 */
@Module({})
export class TransportServerModule {
  static forServer(options: TransportOptions, serviceName: string): DynamicModule {
    return {
      module: TransportServerModule,
      global: true,
      providers: [
        {
          provide: TRANSPORT_SERVER,
          useFactory: (observability?: Observability) => createServer(options, serviceName, observability),
          inject: [{ token: OBSERVABILITY, optional: true }],
        },
        {
          provide: TRANSPORT_SERVER_READINESS,
          useFactory: (server: CustomTransportStrategy): ReadinessCheck =>
            // unwrap() throws until the server listens and after it closes: not ready either way.
            server instanceof ServerNats
              ? natsReadiness('transport', () => server.unwrap<NatsConnection>())
              : { name: 'transport', check: async () => undefined },
          inject: [TRANSPORT_SERVER],
        },
      ],
      exports: [TRANSPORT_SERVER, TRANSPORT_SERVER_READINESS],
    };
  }
}
