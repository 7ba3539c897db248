import { NestPinoLogger, createLogger, type Logger } from '@vault/platform';

export function processLogger(name: string, level: string): { logger: Logger; nestLogger: NestPinoLogger } {
  const logger = createLogger(name, level);
  return { logger, nestLogger: new NestPinoLogger(logger) };
}
