export * from './gateway.module.js';
export * from './gateway.options.js';
export * from './http/http-server.js';
export * from './http/web-app.js';
export * from './http/security-headers.js';
export * from './session/session.store.js';
export { SESSION_COOKIE } from './session/session-cookie.js';
export { DEFAULT_LOGIN_RATE_LIMIT, type LoginRateLimit } from './auth/login-rate-limit.js';
export { SelfDestructService } from './vault/self-destruct.service.js';
