import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config libs/planner/drizzle.config.ts` writes a new migration offline.
export default defineConfig({
  dialect: 'postgresql',
  schema: './libs/planner/src/schema/*.ts',
  out: './libs/planner/migrations',
  schemaFilter: ['planner'],
});
