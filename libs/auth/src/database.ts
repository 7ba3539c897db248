import { Inject } from '@nestjs/common';
import type { ServiceMigrations } from '@vault/persistence';
import { fileURLToPath } from 'node:url';

/** The token of auth-svc's Drizzle handle. */
export const AUTH_DB = Symbol('AUTH_DB');
export const InjectAuthDb = () => Inject(AUTH_DB);

/** Its schema, and its migrations' folder: beside `src/` and `dist/` alike, so both the sources and the build find it. */
export const AUTH_MIGRATIONS: ServiceMigrations = { schema: 'auth', folder: fileURLToPath(new URL('../migrations', import.meta.url)) };
