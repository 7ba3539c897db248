import type { z } from 'zod';

/**
 * A stored row as a contract's object answer: the schema's fields only, each
 * time as ISO 8601 text, and a null left out where the field may be absent but
 * not null (`description: z.string().optional()`). Derived from the schema, so
 * a column added to the table and to the answer needs no mapping of its own.
 */
export function answerOf<S extends z.ZodObject>(schema: S, row: object): z.output<S> {
  const values = row as Record<string, unknown>;
  const answer: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const value = values[key];
    if (value === undefined || (value === null && !acceptsNull(field))) continue;
    answer[key] = value instanceof Date ? value.toISOString() : value;
  }
  return answer as z.output<S>;
}

const nullable = new WeakMap<z.ZodType, boolean>();
/** Whether a field's schema accepts null, asked once per schema. */
function acceptsNull(field: z.ZodType): boolean {
  let accepts = nullable.get(field);
  if (accepts === undefined) {
    accepts = field.safeParse(null).success;
    nullable.set(field, accepts);
  }
  return accepts;
}
