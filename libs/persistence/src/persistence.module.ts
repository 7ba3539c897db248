import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { OBSERVABILITY, contextLogger, type Observability, type ReadinessCheck } from '@vault/platform';
import { openConnection, type Connection, type ConnectionOptions } from './connection.js';
import { drizzleFor } from './database.js';
import { durabilityProblems } from './durability-check.js';
import { applyMigrations, type ServiceMigrations } from './migrations.js';
import { measurePool } from './pool-metrics.js';

export const CONNECTION = Symbol('CONNECTION');
export const DATABASE_READINESS = Symbol('DATABASE_READINESS');

export interface ServiceDatabaseOptions {
  /** The token the service's repositories inject. */
  token: symbol;
  /** The schema the service owns and the folder of its migrations. */
  migrations: ServiceMigrations;
  /** False when a deploy job has already applied them (`VAULT_SKIP_MIGRATIONS`). */
  migrate?: boolean;
}

class ConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(CONNECTION) private readonly connection: Connection) {}
  async onApplicationShutdown() {
    await this.connection.close();
  }
}

@Module({})
export class PersistenceModule {
  /** Opens the one connection of this process. Embedded mode shares it between every service. */
  static forRoot(options: ConnectionOptions): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      providers: [
        {
          provide: CONNECTION,
          useFactory: async (observability?: Observability) => {
            const connection = await openConnection(options);
            if (connection.kind === 'postgres' && observability?.metrics) measurePool(connection.pool, observability.metrics);
            // An operator's server (distributed mode) is checked; the embedded one is started with these settings on.
            if (options.kind === 'postgres' && connection.kind === 'postgres') {
              const logger = contextLogger('Database');
              for (const problem of await durabilityProblems(connection.pool).catch(() => [])) logger.warn(`Not durable: ${problem}`);
            }
            return connection;
          },
          inject: [{ token: OBSERVABILITY, optional: true }],
        },
        {
          provide: DATABASE_READINESS,
          useFactory: (connection: Connection): ReadinessCheck => ({ name: 'database', check: () => connection.ping() }),
          inject: [CONNECTION],
        },
        ConnectionCloser,
      ],
      exports: [CONNECTION, DATABASE_READINESS],
    };
  }
}

@Module({})
export class ServiceDatabaseModule {
  /**
   * The Drizzle handle of one service. Its migrations are applied before the
   * handle exists, so no handler can run against an old schema.
   */
  static forService(options: ServiceDatabaseOptions): DynamicModule {
    return {
      module: ServiceDatabaseModule,
      providers: [
        {
          provide: options.token,
          useFactory: async (connection: Connection) => {
            if (options.migrate !== false) {
              await applyMigrations(connection, options.migrations);
            }
            return drizzleFor(connection);
          },
          inject: [CONNECTION],
        },
      ],
      exports: [options.token],
    };
  }
}
