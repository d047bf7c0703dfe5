/**
 * Every statement regwatch sends names its account's schema through `sql.t.x` (db/scoped-sql.ts),
 * never a schema written in the text: a statement that named `regwatch.x` would read the plain
 * install's tables from an account's Sql, which is the one thing accounts must never do. This scans
 * the source for such names outside comments (scripts/check-sql-names.ts finds unqualified ones).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.join(import.meta.dirname, "../../src");

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(full)));
    else if (entry.name.endsWith(".ts")) out.push(full);
  }
  return out;
}

/** The code of a file without its comments (line and block), so prose may still say regwatch.x. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

describe("statements and schemas", () => {
  it("no statement in src/ names a regwatch schema (the drizzle model for documentation aside)", async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      const relative = path.relative(SRC, file);
      if (relative.startsWith(`db${path.sep}schema${path.sep}`)) continue;
      // The demo runs the plain install and prints queries for the user to paste into psql.
      if (relative === path.join("commands", "demo.ts")) continue;
      const code = withoutComments(await readFile(file, "utf8"));
      for (const match of code.matchAll(/\b"?regwatch(_[a-z0-9_]+)?"?\.(?=["a-z_])[a-z_"]+/g)) {
        offenders.push(`${relative}: ${match[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
