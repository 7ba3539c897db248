import type { ClientProxy, CustomTransportStrategy, MicroserviceOptions, NatsOptions } from '@nestjs/microservices';
import { NO_OBSERVABILITY, type Observability } from '@vault/platform';
import { DrainingServerNats } from './draining-server-nats.js';
import { InProcessBroker, InProcessClient, InProcessServer } from './in-process.transport.js';
import { NATS_RECONNECT } from './nats-reconnect.js';
import type { RpcRequester } from './rpc-requester.js';
import { TracedClientNats } from './traced-client-nats.js';

/** How the gateway reaches the services: chosen by configuration, never by code. */
export type TransportOptions = { kind: 'in-process'; broker: InProcessBroker; timeoutMs: number } | { kind: 'nats'; url: string; timeoutMs: number };

export function createClientProxy(options: TransportOptions, clientName: string, observability: Observability = NO_OBSERVABILITY): ClientProxy & RpcRequester {
  if (options.kind === 'in-process') return new InProcessClient(options.broker);
  return new TracedClientNats({ servers: [options.url], name: clientName, ...NATS_RECONNECT }, observability) as unknown as ClientProxy & RpcRequester;
}

/**
 * A queue group: replicas of one service share its messages instead of each answering.
 * Stopping, a replica first leaves the group (new requests go to the others), then
 * finishes what it has taken before it closes (DrainingServerNats).
 */
function natsServerOptions(url: string, serviceName: string): NonNullable<NatsOptions['options']> {
  return { servers: [url], queue: serviceName, name: serviceName, ...NATS_RECONNECT };
}

/** The server side of the same choice, for `connectMicroservice`. */
export function microserviceOptions(options: TransportOptions, serviceName: string, observability: Observability = NO_OBSERVABILITY): MicroserviceOptions {
  if (options.kind === 'in-process') return { strategy: new InProcessServer(options.broker, observability) };
  return { strategy: createServer(options, serviceName, observability) };
}

/**
 * The same server as an instance (`connectMicroservice({ strategy })`), for a
 * process that must also watch the connection it serves on (readiness).
 */
export function createServer(options: TransportOptions, serviceName: string, observability: Observability = NO_OBSERVABILITY): CustomTransportStrategy {
  if (options.kind === 'in-process') return new InProcessServer(options.broker, observability);
  // It answers what it has taken for as long as the gateway waits for an answer.
  return new DrainingServerNats(natsServerOptions(options.url, serviceName), options.timeoutMs, observability);
}
