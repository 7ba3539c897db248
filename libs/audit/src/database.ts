import { Inject } from '@nestjs/common';
import type { ServiceMigrations } from '@vault/persistence';
import { fileURLToPath } from 'node:url';

/** The token of audit-svc's Drizzle handle. */
export const AUDIT_DB = Symbol('AUDIT_DB');
export const InjectAuditDb = () => Inject(AUDIT_DB);

/** Its schema, and its migrations' folder: beside `src/` and `dist/` alike, so both the sources and the build find it. */
export const AUDIT_MIGRATIONS: ServiceMigrations = { schema: 'audit', folder: fileURLToPath(new URL('../migrations', import.meta.url)) };
