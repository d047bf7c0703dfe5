import { defineConfig } from "drizzle-kit";

// Used only by `npm run db:generate`, which writes SQL migrations from src/db/schema/.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema/index.ts",
  out: "./migrations",
  schemaFilter: ["regwatch"],
});
