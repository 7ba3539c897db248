export * from './rpc-failure.js';
export * from './handles.decorator.js';
export * from './in-process.transport.js';
export * from './transport-options.js';
export * from './rpc-client.js';
export * from './transport.module.js';
