import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the environment once through a schema. On failure it lists every
 * invalid variable, not the first one, so an operator fixes them in one go.
 */
export function readConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(problemsOf(result.error));
}

/** One line per invalid variable: `NAME: what is wrong`. */
export function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
}

/** A variable's value, or undefined when it is unset or blank (as optionalVar reads it). */
export function presentVar(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

const blankAsUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** An optional variable; an empty string counts as unset. */
export function optionalVar<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankAsUndefined, schema.optional());
}

export function intVar(defaultValue: number, min = 1, max = Number.MAX_SAFE_INTEGER) {
  return z.preprocess(blankAsUndefined, z.coerce.number().int().min(min).max(max).default(defaultValue));
}

export const RunMode = z.enum(['embedded', 'distributed']);
export type RunMode = z.infer<typeof RunMode>;

export const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
