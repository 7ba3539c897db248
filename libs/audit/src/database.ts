import { Inject } from '@nestjs/common';
import { fileURLToPath } from 'node:url';

/** The token of audit-svc's Drizzle handle. */
export const AUDIT_DB = Symbol('AUDIT_DB');
export const InjectAuditDb = () => Inject(AUDIT_DB);

/** Beside `src/` and `dist/` alike, so both the sources and the build find it. */
export const AUDIT_MIGRATIONS = fileURLToPath(new URL('../migrations', import.meta.url));
