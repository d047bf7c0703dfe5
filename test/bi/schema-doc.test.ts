import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderSchemaDoc, SCHEMA_DOC } from "../../scripts/schema-doc.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test?.drop();
});

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function runScript(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/run-ts.js", "scripts/schema-doc.ts", ...args], {
      cwd: ROOT,
      env: { ...childBaseEnv(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

describe("docs/schema.md", () => {
  it("is what the migrated database's comments generate (run scripts/schema-doc.ts when this fails)", async () => {
    const committed = await readFile(SCHEMA_DOC, "utf8");
    expect(await renderSchemaDoc(test.db.sql)).toBe(committed);
  });

  it("has a comment for every table, column and view", async () => {
    const missing = await test.db.sql<{ what: string }[]>`
      select c.relname as what from pg_class c
      where c.relnamespace = 'regwatch'::regnamespace and c.relkind in ('r', 'v')
        and obj_description(c.oid, 'pg_class') is null
      union all
      select c.relname || '.' || a.attname from pg_class c
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relnamespace = 'regwatch'::regnamespace and c.relkind in ('r', 'v')
        and col_description(c.oid, a.attnum) is null`;
    expect(missing).toEqual([]);
  });

  it("is checked by the script itself with --check", async () => {
    const result = await runScript(["--check"], { DATABASE_URL: test.url });
    expect(result.out).toContain("is current");
    expect(result.code).toBe(0);
    const wrong = await runScript(["--bogus"], { DATABASE_URL: test.url });
    expect(wrong.code).toBe(64);
  });
});
