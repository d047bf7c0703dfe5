/**
 * Migration 0023 makes payment_batches and extends payment_checks: the batches recorded before it
 * must come out as batch rows with their counts and totals, every row still there, and text a
 * spreadsheet would run as a formula neutralised (the only change to a stored value).
 */
import { rm } from "node:fs/promises";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "../../src/db/migrate.ts";
import { createEmptyDatabase } from "../helpers/db.ts";
import { migrationsBefore } from "../helpers/migrations-before.ts";

describe("migration 0023 (payment batches)", () => {
  let target: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let sql: postgres.Sql;
  let older: string;
  const first = "7b0c8a52-51d4-4c5e-9a55-3f0f7f1d0a01";
  const second = "7b0c8a52-51d4-4c5e-9a55-3f0f7f1d0a02";

  beforeAll(async () => {
    target = await createEmptyDatabase();
    sql = postgres(target.url, { max: 1, onnotice: () => {}, connection: { search_path: "regwatch" } });
    older = await migrationsBefore("0023_payment_batches");
  });
  afterAll(async () => {
    await sql.end();
    await target.drop();
    await rm(older, { recursive: true, force: true });
  });

  it("gives every recorded batch its row, counts and totals, its rows their payee, and neutralises formula text", async () => {
    await migrate(drizzle(sql), { migrationsFolder: older });
    await sql`
      insert into regwatch.payment_checks
        (batch_id, checked_at, line, tax_id, bank_account, verdict, detail, amount, currency, reference)
      values
        (${first}, '2026-11-01T10:00:00Z', 2, '12345676', '11773016-11111018-00000000', 'ok', null, 1000.5, 'HUF', '=HYPERLINK("x")'),
        (${first}, '2026-11-01T10:00:00Z', 3, '+36 1 234', 'x', 'invalid_tax_id', 'not a tax id', 250, 'HUF', '-1250'),
        (${first}, '2026-11-01T10:00:00Z', 4, '12345676-2-41', '11773016-11111018-00000000', 'not_watched', null, 7, 'EUR', '@me'),
        (${second}, '2026-11-02T10:00:00Z', 2, '12345676', '11773016-11111018-00000000', 'ok', null, null, null, 'plain')`;

    await runMigrations(target.url);

    const batches = await sql`
      select id::text, checked_at = finished_at as finished, checked_by, source, row_count, held_count, totals
      from regwatch.payment_batches order by checked_at`;
    expect(batches).toEqual([
      {
        id: first,
        finished: true,
        checked_by: null,
        source: "cli",
        row_count: 3,
        held_count: 1,
        totals: [
          { currency: "EUR", amount: "7", rows: 1, held: "0", held_rows: 0 },
          { currency: "HUF", amount: "1250.5", rows: 2, held: "250", held_rows: 1 },
        ],
      },
      {
        id: second,
        finished: true,
        checked_by: null,
        source: "cli",
        row_count: 1,
        held_count: 0,
        totals: [],
      },
    ]);
    const rows = await sql`
      select line, tax_id, tax_base, reference from regwatch.payment_checks order by batch_id, line`;
    expect(rows).toEqual([
      { line: 2, tax_id: "12345676", tax_base: "12345676", reference: `'=HYPERLINK("x")` },
      { line: 3, tax_id: "'+36 1 234", tax_base: null, reference: "-1250" },
      { line: 4, tax_id: "12345676-2-41", tax_base: "12345676", reference: "'@me" },
      { line: 2, tax_id: "12345676", tax_base: "12345676", reference: "plain" },
    ]);
    // A check row must belong to a batch now.
    await expect(
      sql`insert into regwatch.payment_checks (batch_id, line, bank_account, verdict)
          values ('00000000-0000-0000-0000-000000000000', 2, 'x', 'ok')`,
    ).rejects.toThrow(/payment_checks_batch_id_fkey/);
  });
});
