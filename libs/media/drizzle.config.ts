import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config libs/media/drizzle.config.ts` writes a new migration offline.
export default defineConfig({
  dialect: 'postgresql',
  schema: './libs/media/src/schema/*.ts',
  out: './libs/media/migrations',
  schemaFilter: ['media'],
});
