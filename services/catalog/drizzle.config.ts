import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mysql',
  schema: './services/catalog/src/db/schema.ts',
  out: './services/catalog/migrations',
});
