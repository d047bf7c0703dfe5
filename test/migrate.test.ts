import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "../src/db/migrate.ts";
import { createEmptyDatabase } from "./helpers/db.ts";

const TABLES = [
  "api_usage",
  "business_profiles",
  "businesses",
  "change_files",
  "change_sources",
  "change_values",
  "changes",
  "coverage",
  "desired_items",
  "desired_lists",
  "item_outcomes",
  "runs",
  "watch_lists",
  "watched_items",
];
const VIEWS = ["v_changes", "v_coverage", "v_watch_status"];

describe("migrations", () => {
  let target: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let sql: postgres.Sql;

  beforeAll(async () => {
    target = await createEmptyDatabase();
    sql = postgres(target.url, { max: 1, onnotice: () => {}, connection: { search_path: "regwatch" } });
  });
  afterAll(async () => {
    await sql.end();
    await target.drop();
  });

  it("applies every migration once, even when several processes migrate at the same moment", async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => runMigrations(target.url)));
    const applied = results.map((r) => r.applied).sort();
    expect(applied.filter((n) => n > 0)).toHaveLength(1);
    expect(applied.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);

    const tables = await sql<{ table_name: string; table_type: string }[]>`
      select table_name, table_type from information_schema.tables where table_schema = 'regwatch'
      order by table_name`;
    expect(tables.filter((t) => t.table_type === "BASE TABLE").map((t) => t.table_name)).toEqual(
      expect.arrayContaining(TABLES),
    );
    expect(tables.filter((t) => t.table_type === "VIEW").map((t) => t.table_name)).toEqual(
      expect.arrayContaining(VIEWS),
    );
  });

  it("is harmless when run again: nothing applied, data untouched", async () => {
    await sql`insert into regwatch.desired_lists (list_name) values ('kept')`;
    const again = await runMigrations(target.url);
    expect(again.applied).toBe(0);
    const rows = await sql`select list_name from regwatch.desired_lists`;
    expect(rows.map((r) => r.list_name)).toEqual(["kept"]);
  });

  it("enforces the contract keys of docs/contracts.md", async () => {
    await sql`insert into regwatch.changes (tax_id, change_date, chapter, path, raw)
      values ('12345676', '2026-01-05', 'c1', 'https://x/2026-01-05/companies/a.json', '{}')`;
    await expect(
      sql`insert into regwatch.changes (tax_id, change_date, chapter, path, raw)
        values ('12345676', '2026-01-05', 'c1', 'https://x/2026-01-05/companies/a.json', '{}')`,
    ).rejects.toMatchObject({ code: "23505" });
    await expect(
      sql`insert into regwatch.change_files (path, status) values ('p', 'bogus')`,
    ).rejects.toMatchObject({
      code: "23514",
    });
  });
});
