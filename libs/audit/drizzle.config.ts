import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config libs/audit/drizzle.config.ts` writes a new migration offline.
export default defineConfig({
  dialect: 'postgresql',
  schema: './libs/audit/src/schema/*.ts',
  out: './libs/audit/migrations',
  schemaFilter: ['audit'],
});
