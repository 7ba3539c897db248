import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createLogger } from '../logger.js';
import { requestContext } from '../request-context.js';
import { NO_OBSERVABILITY, createObservability, withTrace } from './observability.js';
import { formatTraceparent, newSpanId, newTraceId, parseTraceparent } from './trace-context.js';
import { idOnlyTracer } from './tracer.js';

describe('W3C trace context', () => {
  it('writes and reads a traceparent header', () => {
    const trace = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', sampled: true };
    expect(formatTraceparent(trace)).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(parseTraceparent(formatTraceparent(trace))).toEqual(trace);
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00')).toMatchObject({ sampled: false });
  });

  it('ignores a header that is missing, malformed or all zeros', () => {
    for (const header of [
      undefined,
      '',
      'garbage',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
    ])
      expect(parseTraceparent(header)).toBeUndefined();
  });

  it('draws ids of the right length, all different', () => {
    const traces = new Set(Array.from({ length: 2000 }, newTraceId));
    const spans = new Set(Array.from({ length: 2000 }, newSpanId));
    expect(traces.size).toBe(2000);
    expect(spans.size).toBe(2000);
    for (const id of traces) expect(id).toMatch(/^[0-9a-f]{32}$/);
    for (const id of spans) expect(id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('without an endpoint or metrics, loads nothing and still gives each request a trace, its children the same trace id', async () => {
    const observability = await createObservability({ service: 'test', metrics: false });
    expect(observability.metrics).toBeUndefined();
    expect(observability.tracer).toBe(idOnlyTracer);
    const root = observability.tracer.start('GET /', 'server', undefined);
    const child = observability.tracer.start('planner.targets.list', 'client', root.context);
    expect(child.context.traceId).toBe(root.context.traceId);
    expect(child.context.spanId).not.toBe(root.context.spanId);
    expect(NO_OBSERVABILITY.metrics).toBeUndefined();
  });

  it('puts the request id and trace id on every log line written in the request', () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const log = createLogger('gateway', 'info', sink);
    const trace = { traceId: newTraceId(), spanId: newSpanId(), sampled: false };
    requestContext.run({ requestId: 'req-9' }, () => withTrace(trace, () => log.info('inside')));
    log.info('outside');
    expect(lines[0]).toMatchObject({ service: 'gateway', requestId: 'req-9', traceId: trace.traceId, spanId: trace.spanId, msg: 'inside' });
    expect(lines[1]).not.toHaveProperty('traceId');
  });
});
