import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { EventContract } from '@vault/contracts';
import { NO_OBSERVABILITY, OBSERVABILITY, type Observability, type ReadinessCheck } from '@vault/platform';
import { EventBus, type EventHandler, type EventSubscription } from './event-bus.js';
import { InProcessEventBus } from './in-process.event-bus.js';
import { ON_EVENT } from './on-event.decorator.js';

/**
 * Ready while this process's events can reach the broker and come from it,
 * and once the events kept for it from before its start (a self-destruct
 * while it was down) have been handled.
 */
export const EVENTS_READINESS = Symbol('EVENTS_READINESS');

export type EventsOptions = { kind: 'in-process' } | { kind: 'jetstream'; url: string; consumerName: string };

/**
 * The bus the options name. The JetStream bus (and with it the NATS client)
 * is loaded only here, when the distributed mode asks for it: the embedded
 * process never loads `@nats-io/*`.
 */
export async function createEventBus(options: EventsOptions, observability: Observability = NO_OBSERVABILITY): Promise<EventBus> {
  if (options.kind === 'in-process') return new InProcessEventBus(observability);
  const { JetStreamEventBus } = await import('./jetstream.event-bus.js');
  return new JetStreamEventBus(options.url, options.consumerName, observability);
}

/** Finds every @OnEvent method in this application and hands them to the bus. */
class EventSubscriber implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(EventBus) private readonly bus: EventBus,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  async onApplicationBootstrap() {
    const subscriptions: EventSubscription[] = [];
    for (const wrapper of [...this.discovery.getControllers(), ...this.discovery.getProviders()]) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance);
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const contract = Reflect.getMetadata(ON_EVENT, prototype[method]) as EventContract | undefined;
        if (!contract) continue;
        const handler = (prototype[method] as EventHandler).bind(instance);
        subscriptions.push({ contract, handler, name: `${prototype.constructor.name}.${method}` });
      }
    }
    await this.bus.subscribe(subscriptions);
  }

  async onApplicationShutdown() {
    await this.bus.close();
  }
}

@Module({})
export class EventsModule {
  static forRoot(options: EventsOptions): DynamicModule {
    return {
      module: EventsModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [
        {
          provide: EventBus,
          useFactory: (observability?: Observability) => createEventBus(options, observability),
          inject: [{ token: OBSERVABILITY, optional: true }],
        },
        {
          provide: EVENTS_READINESS,
          useFactory: (bus: EventBus): ReadinessCheck => ({
            name: 'events',
            check: async () => {
              await bus.checkConnected();
              await bus.checkCaughtUp();
            },
          }),
          inject: [EventBus],
        },
        EventSubscriber,
      ],
      exports: [EventBus, EVENTS_READINESS],
    };
  }
}
