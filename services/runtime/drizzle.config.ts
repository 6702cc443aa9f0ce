import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mysql',
  schema: './services/runtime/src/db/schema.ts',
  out: './services/runtime/migrations',
});
