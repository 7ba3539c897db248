import { Inject } from '@nestjs/common';
import { fileURLToPath } from 'node:url';

/** The token of media-svc's Drizzle handle. */
export const MEDIA_DB = Symbol('MEDIA_DB');
export const InjectMediaDb = () => Inject(MEDIA_DB);

/** Beside `src/` and `dist/` alike, so both the sources and the build find it. */
export const MEDIA_MIGRATIONS = fileURLToPath(new URL('../migrations', import.meta.url));
