export * from './audit.module.js';
