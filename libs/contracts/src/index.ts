export * from './rpc.js';
export * from './validation.js';
export * from './fields.js';
export * from './auth.contracts.js';
export * from './targets.contracts.js';
