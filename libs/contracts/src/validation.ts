import type { z } from 'zod';

/**
 * One readable line for a failed parse, e.g. `title: must not be empty`. It
 * is what the owner sees after the status code, so it names the field.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : 'body';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}
