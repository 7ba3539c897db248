import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** The request body, refused with a 400 unless it is a JSON object. The service validates its fields. */
export const JsonBody = createParamDecorator((_: unknown, context: ExecutionContext): Record<string, unknown> => {
  const body: unknown = context.switchToHttp().getRequest().body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException('The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
});
