// Jest runs the server code as native ESM (NestJS 12 is ESM-only), compiled by
// SWC with decorator metadata, importing each lib from its sources.
import { existsSync, readdirSync } from 'node:fs';

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'es6' },
  },
];

/** Every lib with sources (libs/<name>/src/index.ts), each imported as @vault/<name>. */
const LIBS = readdirSync(new URL('libs', import.meta.url)).filter((name) => existsSync(new URL(`libs/${name}/src/index.ts`, import.meta.url)));

const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    [`^@vault/(${LIBS.join('|')})$`]: '<rootDir>/libs/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
};

export default {
  // Integration hooks start whole vaults; unit tests finish in milliseconds either way.
  testTimeout: 60_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/*/src/**/*.spec.ts', '<rootDir>/apps/*/src/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/libs/*/test/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/global/setup.mjs',
      globalTeardown: '<rootDir>/libs/testing/global/teardown.mjs',
    },
  ],
};
