import { BadRequestException } from '@nestjs/common';
import { describeIssues } from '@vault/contracts';
import type { z } from 'zod';

/** The body read with a contract's schema, or a 400 naming each field that is wrong. */
export function bodyOf<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw new BadRequestException(describeIssues(parsed.error));
  return parsed.data;
}

/** What auth-svc is told about the client, for the lockout. */
export function clientOf(request: { ip: string; headers: Record<string, string | string[] | undefined> }) {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 1000) : undefined };
}
