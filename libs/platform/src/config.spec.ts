import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, intVar, optionalVar, readConfig } from './config.js';

const Schema = z.object({
  PORT: intVar(3000, 1, 65535),
  RPC_TIMEOUT_MS: intVar(1500, 50),
  REDIS_URL: optionalVar(z.url()),
});

describe('readConfig', () => {
  it('applies defaults and treats an empty variable as unset', () => {
    expect(readConfig(Schema, { REDIS_URL: '' })).toEqual({ PORT: 3000, RPC_TIMEOUT_MS: 1500, REDIS_URL: undefined });
    expect(readConfig(Schema, { PORT: '8080' }).PORT).toBe(8080);
  });

  it('lists every invalid variable at once', () => {
    let error: unknown;
    try {
      readConfig(Schema, { PORT: 'eighty', RPC_TIMEOUT_MS: '5', REDIS_URL: 'not a url' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.map((p) => p.split(':')[0])).toEqual(['PORT', 'RPC_TIMEOUT_MS', 'REDIS_URL']);
  });
});
