import { Logger as NestLogger, type LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import { requestContext } from './request-context.js';

export type { Logger } from 'pino';

/** Structured fields of a log line (an address, a count, a URL), kept as JSON beside the message. */
export type LogFields = Record<string, unknown>;

/**
 * The one call shape every log line in the vault uses, pino's: the fields
 * first, then the message (`log.warn({ ip }, 'Self-destruct requested')`), or
 * the message alone. A pino Logger has it; so does contextLogger().
 */
export interface LogFn {
  (message: string): void;
  (fields: LogFields, message: string): void;
}
export interface VaultLog {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  debug: LogFn;
}

/** JSON logs, one line per event, each tagged with its service, request id and trace id. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // The request and its trace on every line written while serving it, in every process it reaches.
    mixin() {
      const context = requestContext.getStore();
      if (!context) return {};
      return {
        ...(context.requestId ? { requestId: context.requestId } : {}),
        ...(context.trace ? { traceId: context.trace.traceId, spanId: context.trace.spanId } : {}),
      };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * The log of one part of a module (`contextLogger('SelfDestruct')`), for code
 * that Nest instantiates: it goes through Nest's logger, so it lands in the
 * process's pino logger (NestPinoLogger below) with its context, fields and
 * request id, and obeys the levels an application was created with.
 */
export function contextLogger(context: string): VaultLog {
  const nest = new NestLogger(context);
  const forward =
    (write: (message: string, ...params: unknown[]) => void): LogFn =>
    (first: string | LogFields, message?: string) =>
      typeof first === 'string' ? write(first) : write(message ?? '', first);
  return {
    info: forward((message, ...params) => nest.log(message, ...params)),
    warn: forward((message, ...params) => nest.warn(message, ...params)),
    // Nest reads a second string as a stack trace; fields are an object, never taken for one.
    error: forward((message, ...params) => nest.error(message, ...params)),
    debug: forward((message, ...params) => nest.debug(message, ...params)),
  };
}

/**
 * Lets Nest's messages (its own, and every contextLogger's) go through the
 * same pino logger. Nest passes `(message, ...params, context)`: an object
 * among the params is a line's fields, a string before the context an error's
 * stack.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, params: unknown[]) {
    // A line below the level is dropped before its fields are gathered: a service's debug line runs for every request.
    if (!this.logger.isLevelEnabled(level)) return;
    const strings = params.filter((p): p is string => typeof p === 'string');
    const context = params.length > 0 && typeof params.at(-1) === 'string' ? strings.pop() : undefined;
    const fields = Object.assign({}, ...params.filter((p): p is LogFields => typeof p === 'object' && p !== null && !(p instanceof Error)));
    const trace = strings[0];
    // A message that is itself an object (Nest's own, rarely) is kept as fields, never printed as [object Object].
    const [messageFields, text] = typeof message === 'object' && message !== null ? [message as LogFields, ''] : [{}, String(message)];
    this.logger[level]({ context, ...(trace ? { trace } : {}), ...messageFields, ...fields }, text);
  }
}
