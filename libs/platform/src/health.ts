import { OBSERVABILITY, type Observability } from './observability/observability.js';
import { Public } from './public.decorator.js';
import { Controller, Get, HttpCode, Inject, Module, Optional, ServiceUnavailableException, type DynamicModule } from '@nestjs/common';

/** Something a service needs before it can serve: its database, its broker. */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

@Public()
@Controller('health')
export class HealthController {
  constructor(@Optional() @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[] = []) {}

  /** Alive as long as the event loop answers. */
  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  /** Ready only when every dependency answers; otherwise 503 naming the failing ones. */
  @Get('ready')
  async ready() {
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
  /** `checks` are provider tokens whose instances implement ReadinessCheck. */
  static register(checks: Array<string | symbol | (abstract new (...args: never[]) => unknown)>): DynamicModule {
    return {
      module: HealthModule,
      controllers: [HealthController],
      providers: [
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
