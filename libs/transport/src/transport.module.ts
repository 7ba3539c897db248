import { Module, type DynamicModule } from '@nestjs/common';
import type { ReadinessCheck } from '@vault/platform';
import { RPC_PROXY, RpcClient, TRANSPORT_OPTIONS } from './rpc-client.js';
import { createClientProxy, type TransportOptions } from './transport-options.js';
import type { ClientProxy } from '@nestjs/microservices';

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
        { provide: RPC_PROXY, useFactory: () => createClientProxy(options, clientName) },
        {
          provide: TRANSPORT_READINESS,
          useFactory: (proxy: ClientProxy): ReadinessCheck => ({
            name: 'transport',
            check: async () => {
              await proxy.connect();
            },
          }),
          inject: [RPC_PROXY],
        },
        RpcClient,
      ],
      exports: [RpcClient, TRANSPORT_READINESS],
    };
  }
}
