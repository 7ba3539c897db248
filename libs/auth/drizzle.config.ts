import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config libs/auth/drizzle.config.ts` writes a new migration offline.
export default defineConfig({
  dialect: 'postgresql',
  schema: './libs/auth/src/schema/*.ts',
  out: './libs/auth/migrations',
  schemaFilter: ['auth'],
});
