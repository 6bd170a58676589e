import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new migration from the schema; commit it, never edit an applied one.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './src/server/db/migrations',
  strict: true,
  verbose: true,
});
