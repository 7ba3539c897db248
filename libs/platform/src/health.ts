import { OBSERVABILITY, type Observability } from './observability/observability.js';
import { Public } from './public.decorator.js';
import {
  Controller,
  Get,
  HttpCode,
  Inject,
  Injectable,
  Module,
  Optional,
  type OnModuleDestroy,
  ServiceUnavailableException,
  type DynamicModule,
} from '@nestjs/common';

/** Something a service needs before it can serve: its database, its broker. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

const STOP_DELAY_MS = Symbol('STOP_DELAY_MS');

/**
 * The process told to stop (SIGTERM: its shutdown begins): its readiness fails
 * at once, so that what routes by readiness (kube-proxy, a load balancer) stops
 * sending it connections, and it keeps serving for the delay while that news
 * travels. It waits in onModuleDestroy, the shutdown's first hooks: the HTTP
 * server closes (finishing what is in flight) only after them, and the vault's
 * modules let go of their connections later still (onApplicationShutdown).
 */
@Injectable()
class StopDelay implements OnModuleDestroy {
  private stopping = false;

  constructor(@Inject(STOP_DELAY_MS) private readonly delayMs: number) {}

  get received(): boolean {
    return this.stopping;
  }

  async onModuleDestroy() {
    this.stopping = true;
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
  }
}

@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly stop: StopDelay,
    @Optional() @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[] = [],
  ) {}

  /** Alive as long as the event loop answers. */
  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  /** Ready only when every dependency answers; otherwise 503 naming the failing ones. */
  @Get('ready')
  async ready() {
    if (this.stop.received) throw new ServiceUnavailableException('Not ready: stopping');
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await withDeadline(c.check(), 2000);
          return { name: c.name, ok: true as const };
        } catch (error) {
          return { name: c.name, ok: false as const, error: (error as Error).message };
        }
      }),
    );
    const failing = results.filter((r) => !r.ok);
    if (failing.length > 0) {
      throw new ServiceUnavailableException(`Not ready: ${failing.map((f) => f.name).join(', ')}`);
    }
    return { status: 'ready', checks: results.map((r) => r.name) };
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

@Module({})
export class HealthModule {
  /**
   * `checks` are provider tokens whose instances implement ReadinessCheck;
   * `stopDelayMs`, how long the process serves on, not ready, once told to stop.
   */
  static register(checks: Array<string | symbol | (abstract new (...args: never[]) => unknown)>, { stopDelayMs = 0 } = {}): DynamicModule {
    return {
      module: HealthModule,
      controllers: [HealthController],
      providers: [
        { provide: STOP_DELAY_MS, useValue: stopDelayMs },
        StopDelay,
        {
          provide: READINESS_CHECKS,
          // The same checks, at each scrape, in the process's metrics (vault_readiness).
          useFactory: (observability: Observability | undefined, ...instances: ReadinessCheck[]) => {
            observability?.metrics?.watchReadiness(instances);
            return instances;
          },
          inject: [{ token: OBSERVABILITY, optional: true }, ...(checks as never[])],
        },
      ],
    };
  }
}
