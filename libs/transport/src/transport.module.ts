import { Module, type DynamicModule } from '@nestjs/common';
import { OBSERVABILITY, type Observability, type ReadinessCheck } from '@vault/platform';
import { RPC_PROXY, RpcClient, TRANSPORT_OPTIONS } from './rpc-client.js';
import { createClientProxy, type TransportOptions } from './transport-options.js';
import type { ClientProxy } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { natsReadiness } from './nats-readiness.js';

export const TRANSPORT_READINESS = Symbol('TRANSPORT_READINESS');

@Module({})
export class TransportModule {
  /** The calling side: provides RpcClient over the configured transport. */
  static forClient(options: TransportOptions, clientName: string): DynamicModule {
    return {
      module: TransportModule,
      global: true,
      providers: [
        { provide: TRANSPORT_OPTIONS, useValue: options },
        {
          provide: RPC_PROXY,
          useFactory: (observability?: Observability) => createClientProxy(options, clientName, observability),
          inject: [{ token: OBSERVABILITY, optional: true }],
        },
        {
          provide: TRANSPORT_READINESS,
          // ClientNats.connect() rejects while disconnected (it caches the loss), and rtt() asks the broker itself.
          useFactory: (proxy: ClientProxy): ReadinessCheck =>
            options.kind === 'nats'
              ? natsReadiness('transport', () => proxy.connect() as Promise<NatsConnection>)
              : { name: 'transport', check: async () => void (await proxy.connect()) },
          inject: [RPC_PROXY],
        },
        RpcClient,
      ],
      exports: [RpcClient, TRANSPORT_READINESS],
    };
  }
}
