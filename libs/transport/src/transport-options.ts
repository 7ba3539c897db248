import { ClientProxyFactory, Transport, type ClientProxy, type MicroserviceOptions } from '@nestjs/microservices';
import { InProcessBroker, InProcessClient, InProcessServer } from './in-process.transport.js';

/** How the gateway reaches the services: chosen by configuration, never by code. */
export type TransportOptions =
  | { kind: 'in-process'; broker: InProcessBroker; timeoutMs: number }
  | { kind: 'nats'; url: string; timeoutMs: number };

export function createClientProxy(options: TransportOptions, clientName: string): ClientProxy {
  if (options.kind === 'in-process') return new InProcessClient(options.broker);
  return ClientProxyFactory.create({
    transport: Transport.NATS,
    options: { servers: [options.url], name: clientName },
  }) as ClientProxy;
}

/** The server side of the same choice, for `connectMicroservice`. */
export function microserviceOptions(options: TransportOptions, serviceName: string): MicroserviceOptions {
  if (options.kind === 'in-process') return { strategy: new InProcessServer(options.broker) };
  // A queue group: replicas of one service share its messages instead of each answering.
  return { transport: Transport.NATS, options: { servers: [options.url], queue: serviceName, name: serviceName } };
}
