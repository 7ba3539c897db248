import { afterEach, describe, expect, it } from '@jest/globals';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { NestPinoLogger } from '@vault/platform';
import type { EventBus, RpcClient } from '@vault/transport';
import type { FastifyRequest } from 'fastify';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { AttemptCounter } from '../auth/login-rate-limit.js';
import type { GatewayOptions } from '../gateway.options.js';
import type { SessionStore } from '../session/session.store.js';
import type { PendingSignInStore } from '../session/pending-sign-in.store.js';
import type { ImportProgressStore } from '../archive/import-progress.store.js';
import { SelfDestructService } from './self-destruct.service.js';
import type { VaultStateCache } from './vault-state.cache.js';

/** The JSON lines a pino logger writes, kept in memory. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'info', base: { service: 'gateway' } }, sink);
  return { logger, lines };
}

/** A self-destruct whose services all confirm (the collaborators are stand-ins: only the log line is under test). */
function selfDestruct() {
  const rpc = { send: async () => ({ destroyed: true, globalAccess: false }) } as unknown as RpcClient;
  const events = { publish: () => undefined, flush: async () => undefined } as unknown as EventBus;
  const state = { set: (value: unknown) => value } as unknown as VaultStateCache;
  const sessions = { clear: async () => undefined } as unknown as SessionStore;
  const pendingSignIns = { clear: async () => undefined } as unknown as PendingSignInStore;
  const importProgress = { clear: async () => undefined } as unknown as ImportProgressStore;
  const attempts = { clear: async () => undefined } as unknown as AttemptCounter;
  const options = { services: ['auth'] } as unknown as GatewayOptions;
  return new SelfDestructService(rpc, events, state, sessions, pendingSignIns, importProgress, attempts, options);
}

describe('the self-destruct log line', () => {
  afterEach(() => Logger.overrideLogger(new ConsoleLogger()));

  it('names the address and the user agent as fields of the process log, not [object Object]', async () => {
    const { logger, lines } = capturedLogger();
    Logger.overrideLogger(new NestPinoLogger(logger));
    const request = { ip: '203.0.113.9', headers: { 'user-agent': 'tester/2.0' } } as unknown as FastifyRequest;

    await expect(selfDestruct().execute(request)).resolves.toEqual({ destroyed: true });

    const line = lines.find((l) => l.context === 'SelfDestruct');
    expect(line).toMatchObject({ level: 40, service: 'gateway', msg: 'Self-destruct requested by the owner', ip: '203.0.113.9', userAgent: 'tester/2.0' });
    expect(JSON.stringify(lines)).not.toContain('[object Object]');
  });

  it('says when the request carried no user agent', async () => {
    const { logger, lines } = capturedLogger();
    Logger.overrideLogger(new NestPinoLogger(logger));
    await selfDestruct().execute({ ip: '198.51.100.4', headers: {} } as unknown as FastifyRequest);
    expect(lines.find((l) => l.context === 'SelfDestruct')).toMatchObject({ ip: '198.51.100.4', userAgent: null });
  });
});
