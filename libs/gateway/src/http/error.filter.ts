import { Catch, HttpException, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { contextLogger } from '@vault/platform';
import { RpcFailure } from '@vault/transport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BODY_TOO_LARGE } from './body-limit.js';
import type { WebApp } from './web-app.js';

/** Fastify's own refusals, said the project's way (`field: problem`) where its wording names no limit. */
const FASTIFY_MESSAGES = new Map<string, string>([['FST_ERR_CTP_BODY_TOO_LARGE', BODY_TOO_LARGE]]);

/**
 * Every failure leaves as its status and a plain-text message, so the web app
 * shows `STATUS: message` (spec section 8). A 404 for a page (not /api) is the
 * single-page app's own route, so it gets the app.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = contextLogger('HTTP');

  constructor(private readonly web?: WebApp) {}

  catch(exception: unknown, host: ArgumentsHost) {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (exception instanceof NotFoundException && this.web?.serves(request)) {
      return this.web.sendIndex(request, reply);
    }
    const { status, message } = describe(exception);
    if (status >= 500 && status !== 503) this.logger.error(`${request.method} ${request.url}: ${stack(exception)}`);
    reply.status(status).type('text/plain; charset=utf-8').send(message);
  }
}

function describe(exception: unknown): { status: number; message: string } {
  if (exception instanceof RpcFailure) return { status: exception.status, message: exception.message };
  const known = FASTIFY_MESSAGES.get(fastifyCode(exception) ?? '');
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (known) return { status, message: known };
    if (exception instanceof NotFoundException && exception.message.startsWith('Cannot ')) {
      return { status, message: 'Not found' };
    }
    return { status, message: exception.message };
  }
  const status = (exception as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, message: known ?? (exception as Error).message };
  }
  return { status: 500, message: 'Internal error' };
}

/** The FST_ERR_* code of a Fastify refusal, which Nest's adapter hands on as an HttpException caused by it. */
function fastifyCode(exception: unknown): string | undefined {
  const error = exception as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = error?.code ?? error?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

function stack(exception: unknown) {
  return exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
}
