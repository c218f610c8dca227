import { defineConfig } from "drizzle-kit";

// Migrations are generated from db/schema and applied at start by db/migrate.ts; never `push`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
  strict: true,
});
