import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mysql',
  schema: './services/vaults/src/db/schema.ts',
  out: './services/vaults/migrations',
});
