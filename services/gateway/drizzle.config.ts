import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mysql',
  schema: './services/gateway/src/db/schema.ts',
  out: './services/gateway/migrations',
});
