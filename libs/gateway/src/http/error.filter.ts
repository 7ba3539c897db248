import { Catch, HttpException, Logger, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { RpcFailure } from '@vault/transport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebApp } from './web-app.js';

/**
 * Every failure leaves as its status and a plain-text message, so the web app
 * shows `STATUS: message` (spec section 8). A 404 for a page (not /api) is the
 * single-page app's own route, so it gets the app.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

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
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (exception instanceof NotFoundException && exception.message.startsWith('Cannot ')) {
      return { status, message: 'Not found' };
    }
    return { status, message: exception.message };
  }
  const status = (exception as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, message: (exception as Error).message };
  }
  return { status: 500, message: 'Internal error' };
}

function stack(exception: unknown) {
  return exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
}
