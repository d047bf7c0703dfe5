/**
 * The check that keeps every statement of src/ naming its account's schema (scripts/check-sql-names.ts):
 * a planted unqualified name is found in each place a relation is named, qualified ones, CTEs and
 * columns pass, and the check passes on src/ as it is.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { findUnqualified, type Relations, unlisted } from "../../scripts/check-sql-names.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

async function checkNames(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(
      process.execPath,
      [path.join(ROOT, "bin/run-ts.js"), path.join(ROOT, "scripts/check-sql-names.ts"), ...args],
      { cwd: ROOT },
    );
    return { code: 0, stderr };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

const relations: Relations = {
  tables: new Set(["watch_lists", "runs", "coverage", "reader_roles"]),
  functions: new Set(["business_as_of"]),
};
/** The check's findings in one file of `lines` (written with #{...} for a template's ${...}). */
const found = (lines: string[]) =>
  findUnqualified(new Map([["db/x.ts", lines.join("\n").replaceAll("#{", "$" + "{")]]), relations);

describe("the SQL names check", () => {
  it("finds a relation named without the schema after from, join, into, update, a FROM list's comma and in a call", () => {
    expect(
      found([
        "const a = await sql`select * from watch_lists w join runs r on r.id = w.id`;",
        "const b = await tx<{ n: number }[]>`insert into coverage (x) values (#{1})`;",
        "const c = await db.sql`update runs set x = 1`;",
        "const d = await sql`select 1 from #{sql.t.watch_lists} w, coverage c`;",
        "const e = await sql`select business_as_of(#{id}, #{day})`;",
        "const f = await sql`select to_regclass('reader_roles')`;",
        "const g = await sql`truncate #{sql.t.runs}, coverage cascade`;",
      ]),
    ).toEqual([
      "db/x.ts:1: watch_lists (after from)",
      "db/x.ts:1: runs (after join)",
      "db/x.ts:2: coverage (after into)",
      "db/x.ts:3: runs (after update)",
      "db/x.ts:4: coverage (after ,)",
      "db/x.ts:5: business_as_of (a call)",
      "db/x.ts:6: reader_roles (after regclass)",
      "db/x.ts:7: coverage (after ,)",
    ]);
  });

  it("passes qualified names, CTEs, aliases, columns, strings and templates that are not SQL", () => {
    expect(
      found([
        "await sql`select * from #{sql.t.watch_lists} w join #{sql.t.runs} r on r.id = w.id`;",
        "await sql`with runs as (select 1) select * from runs`;",
        "await sql`select count(*) as coverage, 'from runs' as said from #{sql.t.coverage}`;",
        "await sql`select runs.id from #{sql.t.runs} where x in (1, 2)`;",
        "const text = `from watch_lists`; // a message, not a statement",
        "await sql`select 1 -- from runs\n from #{sql.t.runs}`;",
      ]),
    ).toEqual([]);
  });

  it("names a migration's relation that scoped-sql.ts does not list", () => {
    expect(
      unlisted(relations, 'export const RELATION_NAMES = ["watch_lists", "runs", "coverage"] as const;'),
    ).toEqual(["business_as_of", "reader_roles"]);
  });

  it("fails, naming file and line, on a planted name, and passes on src/", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "regwatch-sql-names-"));
    try {
      await writeFile(
        path.join(dir, "planted.ts"),
        "export const q = (sql: any) => sql`select * from watch_lists`;\n",
      );
      const planted = await checkNames(dir);
      expect(planted.code).toBe(1);
      expect(planted.stderr).toMatch(/planted\.ts:1: watch_lists \(after from\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(await checkNames()).toEqual({ code: 0, stderr: "" });
  });
});
