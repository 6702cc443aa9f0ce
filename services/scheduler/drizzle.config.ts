import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mysql',
  schema: './services/scheduler/src/db/schema.ts',
  out: './services/scheduler/migrations',
});
