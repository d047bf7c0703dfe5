/**
 * `npm run check:schema`: drizzle-kit generate, run on a copy of migrations/, writes nothing for
 * the schema as it is, and names the difference (exit 1) for a schema with a column the
 * migrations lack; the real migrations/ is left as it was either way.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { schemaDrift } from "../../scripts/check-schema-drift.mjs";
import { ROOT } from "../helpers/package-manifest.ts";

const script = path.join(ROOT, "scripts/check-schema-drift.mjs");
const migrationsNow = () => readdirSync(path.join(ROOT, "migrations"), { recursive: true }).sort();

/** A copy of src/db/schema/ whose given_names has one column more than the migrations made. */
function driftedSchema(): { dir: string; entry: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-drifted-schema-"));
  cpSync(path.join(ROOT, "src/db/schema"), path.join(dir, "schema"), { recursive: true });
  // The copy's imports (drizzle-orm) resolve from the checkout's packages.
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  const file = path.join(dir, "schema/given-names.ts");
  const text = readFileSync(file, "utf8");
  const drifted = text.replace(
    `name: text("name").notNull(),`,
    `name: text("name").notNull(),\n    note: text("note"),`,
  );
  expect(drifted).not.toBe(text);
  writeFileSync(file, drifted);
  return { dir, entry: path.join(dir, "schema/index.ts") };
}

describe("schema drift check", () => {
  const before = migrationsNow();
  const drifted = driftedSchema();
  afterAll(() => rmSync(drifted.dir, { recursive: true, force: true }));

  it("finds nothing to write for the schema as it is", () => {
    expect(schemaDrift().written).toEqual([]);
    const run = spawnSync(process.execPath, [script], { cwd: ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("schema drift: none");
    expect(run.status).toBe(0);
  });

  it("fails on a column the migrations lack, naming it", () => {
    const { written } = schemaDrift({ schema: drifted.entry });
    const sql = written.filter((f) => f.name.endsWith(".sql"));
    expect(sql).toHaveLength(1);
    expect(sql[0]?.text).toContain(`ALTER TABLE "regwatch"."given_names" ADD COLUMN "note" text;`);

    const run = spawnSync(process.execPath, [script, drifted.entry], { cwd: ROOT, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`ADD COLUMN "note" text`);
    expect(run.stderr).toContain("npm run db:generate");
  });

  it("never writes into the real migrations folder", () => {
    expect(migrationsNow()).toEqual(before);
  });
});
