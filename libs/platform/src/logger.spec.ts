import { afterEach, describe, expect, it } from '@jest/globals';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { NestPinoLogger, contextLogger } from './logger.js';

function captured() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  Logger.overrideLogger(new NestPinoLogger(pino({ level: 'debug' }, sink)));
  return lines;
}

describe('one log API: contextLogger and Nest, through the process pino logger', () => {
  afterEach(() => Logger.overrideLogger(new ConsoleLogger()));

  it('writes fields first, then the message, with the context', () => {
    const lines = captured();
    const log = contextLogger('Photos');
    log.info({ count: 3 }, 'Erased photos');
    log.warn('Bucket slow');
    expect(lines.map(({ level, context, count, msg }) => ({ level, context, count, msg }))).toEqual([
      { level: 30, context: 'Photos', count: 3, msg: 'Erased photos' },
      { level: 40, context: 'Photos', count: undefined, msg: 'Bucket slow' },
    ]);
  });

  it("keeps Nest's own calls as they were: an error's stack, and the context last", () => {
    const lines = captured();
    Logger.error('Boot failed', 'Error: boom\n    at x', 'NestApplication');
    new Logger('RouterExplorer').log('Mapped {/api/targets, GET} route');
    expect(lines[0]).toMatchObject({ level: 50, context: 'NestApplication', trace: 'Error: boom\n    at x', msg: 'Boot failed' });
    expect(lines[1]).toMatchObject({ level: 30, context: 'RouterExplorer', msg: 'Mapped {/api/targets, GET} route' });
  });

  it('never prints an object given where a message was expected as [object Object]', () => {
    const lines = captured();
    new Logger('Legacy').warn({ ip: '203.0.113.9' });
    expect(lines[0]).toMatchObject({ context: 'Legacy', ip: '203.0.113.9' });
    expect(JSON.stringify(lines)).not.toContain('[object Object]');
  });
});
