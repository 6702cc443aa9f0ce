import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mysql',
  schema: './services/deployments/src/db/schema.ts',
  out: './services/deployments/migrations',
});
