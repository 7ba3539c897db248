export * from './servers.js';
export * from './test-database.js';
export * from './test-redis.js';
export * from './http-client.js';
export * from './images.js';
export * from './owner.js';
export * from './day-one-export.js';
export * from './zip-files.js';
