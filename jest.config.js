// Jest runs the server code as native ESM (NestJS 12 is ESM-only), compiled by
// SWC with decorator metadata, importing each lib from its sources.
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

const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@vault/(contracts|platform|transport|persistence|auth|planner|journal|audit|media|gateway|host|testing)$': '<rootDir>/libs/$1/src/index.ts',
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
