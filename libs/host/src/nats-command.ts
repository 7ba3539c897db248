import 'reflect-metadata';
import { Module, type INestApplicationContext, type Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventsModule, TransportModule } from '@vault/transport';
import type { VaultConfig } from './vault-config.js';

/**
 * One of the gateway image's commands (a backup, a journal import): a
 * short-lived NATS client of the running services, without HTTP or a
 * session. `providers` (the exporter, the importer) run in a Nest context
 * with the RPC client and the event bus, given `timeoutMs` a call (a page of
 * an archive takes longer than a screen's call, never less than the usual
 * deadline); the context is closed once `work` ends.
 */
export async function withServicesOverNats<T>(
  config: VaultConfig,
  options: { name: string; timeoutMs: number; providers: Provider[] },
  work: (app: INestApplicationContext) => Promise<T>,
): Promise<T> {
  @Module({
    imports: [
      TransportModule.forClient({ kind: 'nats', url: config.NATS_URL, timeoutMs: Math.max(config.RPC_TIMEOUT_MS, options.timeoutMs) }, options.name),
      EventsModule.forRoot({ kind: 'jetstream', url: config.NATS_URL, consumerName: options.name }),
    ],
    providers: options.providers,
  })
  class CommandModule {}
  const app = await NestFactory.createApplicationContext(CommandModule, { logger: ['error', 'warn'], abortOnError: false });
  try {
    await app.init();
    return await work(app);
  } finally {
    await app.close();
  }
}
