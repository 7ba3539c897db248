export * from './request-context.js';
export * from './logger.js';
export * from './config.js';
export * from './health.js';
export * from './outage.js';
export * from './public.decorator.js';
export * from './raw-body-route.js';
export * from './observability/index.js';
