import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, ForbiddenException, Get, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { CLEAR_SITE_DATA, clearSiteDataAfterSelfDestruct } from './clear-site-data.js';

/** What the stand-in self-destruct answers next: confirmed, or refused (no recent authentication). */
let confirmed = true;

/** The settings routes as Nest registers them (the hook matches the route's path, which Nest composes). */
@Controller('api/settings')
class StandInSettingsController {
  @Post('self-destruct')
  @HttpCode(200)
  destroy() {
    if (!confirmed) throw new ForbiddenException('Authenticate again');
    return { destroyed: true };
  }

  @Get('self-destruct')
  read() {
    return { nothing: true };
  }

  @Post('global-access')
  @HttpCode(200)
  open() {
    return { globalAccess: true };
  }
}

@Module({ controllers: [StandInSettingsController] })
class TestModule {}

describe('clearSiteDataAfterSelfDestruct', () => {
  let app: NestFastifyApplication;
  let base: string;
  const send = async (method: string, path: string) => {
    const response = await fetch(base + path, { method });
    return { status: response.status, clear: response.headers.get('clear-site-data') };
  };

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter(), { logger: false, abortOnError: false });
    clearSiteDataAfterSelfDestruct(app.getHttpAdapter().getInstance() as unknown as FastifyInstance);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await app.close();
  });

  it('tells the browser to forget its cache and storage once the vault is destroyed', async () => {
    confirmed = true;
    expect(await send('POST', '/api/settings/self-destruct')).toEqual({ status: 200, clear: CLEAR_SITE_DATA });
    expect(CLEAR_SITE_DATA).toBe('"cache", "storage"');
  });

  it('clears nothing when the self-destruct is refused, nor on any other answer', async () => {
    confirmed = false;
    expect(await send('POST', '/api/settings/self-destruct')).toEqual({ status: 403, clear: null });
    expect(await send('GET', '/api/settings/self-destruct')).toEqual({ status: 200, clear: null });
    expect(await send('POST', '/api/settings/global-access')).toEqual({ status: 200, clear: null });
  });
});
