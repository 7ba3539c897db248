import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PersistenceModule } from '@vault/persistence';
import { InProcessBroker, RpcClient, TransportModule, microserviceOptions } from '@vault/transport';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MediaEraser, MediaModule, type MediaOptions } from '../src/index.js';

/**
 * media-svc's module in one Nest application, as the embedded vault hosts
 * it: its handlers behind the in-process transport (payloads still cross as
 * JSON and are validated), its upload route on a real Fastify server, its
 * rows in a real PostgreSQL database.
 */
export async function startMediaStack(databaseUrl: string, options: Omit<MediaOptions, 'migrate'>) {
  const broker = new InProcessBroker();
  const transport = { kind: 'in-process' as const, broker, timeoutMs: 10_000 };

  @Module({
    imports: [
      PersistenceModule.forRoot({ kind: 'postgres', url: databaseUrl }),
      TransportModule.forClient(transport, 'test'),
      MediaModule.forRoot({ ...options, migrate: true }),
    ],
  })
  class MediaTestModule {}

  const app = await NestFactory.create<NestFastifyApplication>(MediaTestModule, new FastifyAdapter(), { logger: ['error'] });
  app.connectMicroservice(microserviceOptions(transport, 'media-test'));
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  return {
    app: app as INestApplication,
    url: `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`,
    rpc: app.get(RpcClient),
    eraser: app.get(MediaEraser),
    close: () => app.close(),
  };
}

export type MediaStack = Awaited<ReturnType<typeof startMediaStack>>;

/** Every file under a folder, as `sub/name` paths, sorted. */
export async function filesUnder(dir: string, sub = ''): Promise<string[]> {
  const entries = await readdir(join(dir, sub), { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? filesUnder(dir, join(sub, entry.name)) : Promise.resolve([join(sub, entry.name)]))),
  );
  return nested.flat().sort();
}
