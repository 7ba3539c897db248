export * from './vault-config.js';
export * from './process-options.js';
export * from './start-embedded.js';
export * from './start-gateway.js';
export * from './start-service.js';
export * from './migrate-service.js';
export * from './run.js';
