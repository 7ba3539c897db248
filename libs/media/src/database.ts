import { Inject } from '@nestjs/common';
import type { ServiceMigrations } from '@vault/persistence';
import { fileURLToPath } from 'node:url';

/** The token of media-svc's Drizzle handle. */
export const MEDIA_DB = Symbol('MEDIA_DB');
export const InjectMediaDb = () => Inject(MEDIA_DB);

/** Its schema, and its migrations' folder: beside `src/` and `dist/` alike, so both the sources and the build find it. */
export const MEDIA_MIGRATIONS: ServiceMigrations = { schema: 'media', folder: fileURLToPath(new URL('../migrations', import.meta.url)) };
