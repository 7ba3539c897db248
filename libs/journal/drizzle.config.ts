import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config libs/journal/drizzle.config.ts` writes a new migration offline.
export default defineConfig({
  dialect: 'postgresql',
  schema: './libs/journal/src/schema/*.ts',
  out: './libs/journal/migrations',
  schemaFilter: ['journal'],
});
