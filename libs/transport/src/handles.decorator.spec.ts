import { describe, expect, it } from '@jest/globals';
import { defineRpc, type RpcReply } from '@vault/contracts';
import { currentRequestId } from '@vault/platform';
import { z } from 'zod';
import { Handles } from './handles.decorator.js';
import { RpcFailure } from './rpc-failure.js';

const Echo = defineRpc({
  pattern: 'test.echo',
  request: z.object({ word: z.string().trim().min(1, 'must not be empty') }),
  response: z.object({ word: z.string(), requestId: z.string().optional() }),
});

class EchoHandlers {
  @Handles(Echo)
  async echo(request: { word: string }) {
    if (request.word === 'missing') throw RpcFailure.notFound('No such word');
    if (request.word === 'boom') throw new Error('database exploded');
    if (request.word === 'crowded')
      throw new Error('Failed query: select 1', { cause: Object.assign(new Error('sorry, too many clients already'), { code: '53300' }) });
    return { word: request.word, requestId: currentRequestId() };
  }
}

const call = (envelope: unknown) => (new EchoHandlers().echo as unknown as (e: unknown) => Promise<RpcReply>)(envelope);

describe('@Handles', () => {
  it('hands the handler the parsed request and runs it under the caller request id', async () => {
    await expect(call({ data: { word: ' hi ' }, meta: { requestId: 'req-1' } })).resolves.toEqual({
      ok: true,
      data: { word: 'hi', requestId: 'req-1' },
    });
  });

  it('refuses a request its contract rejects with a 400, before the handler runs', async () => {
    await expect(call({ data: { word: '  ' }, meta: {} })).resolves.toEqual({
      ok: false,
      error: { status: 400, message: 'word: must not be empty' },
    });
    await expect(call(undefined)).resolves.toMatchObject({ ok: false, error: { status: 400 } });
  });

  it('carries a typed failure across as its status and message', async () => {
    await expect(call({ data: { word: 'missing' }, meta: {} })).resolves.toEqual({
      ok: false,
      error: { status: 404, message: 'No such word' },
    });
  });

  it('hides an unexpected error behind a 500 that names only the service', async () => {
    await expect(call({ data: { word: 'boom' }, meta: {} })).resolves.toEqual({
      ok: false,
      error: { status: 500, message: 'The test service failed on this request.' },
    });
  });

  it('answers 503 when what the handler depends on is unavailable (its database out of connections), as for a service that is away', async () => {
    await expect(call({ data: { word: 'crowded' }, meta: {} })).resolves.toEqual({
      ok: false,
      error: { status: 503, message: 'The test service is unavailable. Try again shortly.' },
    });
  });
});
