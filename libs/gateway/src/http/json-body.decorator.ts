import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** A request's body as a JSON object, refused with a 400 otherwise. The service validates its fields. */
export function jsonObjectOf(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException('The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** The request body, refused with a 400 unless it is a JSON object. */
export const JsonBody = createParamDecorator(
  (_: unknown, context: ExecutionContext): Record<string, unknown> => jsonObjectOf(context.switchToHttp().getRequest().body),
);
