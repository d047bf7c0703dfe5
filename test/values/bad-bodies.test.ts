/**
 * Parsers say what they recognise, and nothing one file holds fails another: against a registry
 * serving unfamiliar shapes, Windows-1250 text, a NUL, half a surrogate pair, UTF-16 and gzip
 * bytes labelled JSON, and a value nested too deep to store (failed for good), next to ordinary
 * files. Every sync and `reparse` goes on; each bad file is marked with its reason and the good
 * ones keep their values.
 */
import { gzipSync } from "node:zlib";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseStoredFiles } from "../../src/parse/parse-files.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  type Answer,
  type HostileRegistry,
  json,
  oneDayOfFiles,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { syncHostile, taxIdOf } from "./helpers.ts";

const DAY = "2024-03-05";
const NAME = "Árvíztűrő Tükörfúrógép Kft.";

const fileBody = (tax: string, newValue: string) =>
  `{"tax_id":"${tax}","changes":[{"heading":"long_name","old_value":"Old","new_value":${newValue}}]}`;
const labelled = (body: string | Buffer, contentType = "application/json"): Answer => ({
  headers: { "content-type": contentType },
  body,
});
const deep = (depth: number) => `${"[".repeat(depth)}"x"${"]".repeat(depth)}`;

/** Each business's file, by the name the path ends with. */
const FILES: Record<string, (tax: string) => Answer> = {
  "good-1": (tax) => labelled(fileBody(tax, '"Good One Kft."')),
  "before-after": (tax) =>
    json({ tax_id: tax, changes: [{ heading: "long_name", before: "A", after: "B" }] }),
  empty: (tax) => json({ tax_id: tax, changes: [] }),
  "windows-1250": (tax) =>
    labelled(
      iconv.encode(fileBody(tax, JSON.stringify(NAME)), "windows-1250"),
      "application/json; charset=windows-1250",
    ),
  nul: (tax) => labelled(fileBody(tax, '"B\\u0000C"')),
  surrogate: (tax) => labelled(fileBody(tax, '"B\\ud800C"')),
  "utf-16": (tax) => labelled(iconv.encode(fileBody(tax, '"Sixteen Kft."'), "utf-16le")),
  gzip: (tax) => labelled(gzipSync(fileBody(tax, '"Zipped Kft."'))),
  deep: (tax) => labelled(fileBody(tax, deep(10_000))),
  "good-2": (tax) => labelled(fileBody(tax, '"Good Two Kft."')),
};
const NAMES = Object.keys(FILES);
const TAX = Object.fromEntries(NAMES.map((name, i) => [name, taxIdOf(2, i + 1)]));

describe("bodies no parser should trust", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  const sync = () => syncHostile(t.db.sql, registry);

  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_bodies", list_name: "bodies", created_at: "2024-03-01" }],
      changes: oneDayOfFiles(DAY, TAX, () => registry.url),
      file: (path) => {
        const name = /\/files\/(.+)\.json$/.exec(path)?.[1] ?? "";
        return FILES[name]?.(TAX[name]!) ?? json({ error: "no such file" }, 404);
      },
    });
  });
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
  });

  const files = async () => {
    const rows = await t.db.sql<
      {
        path: string;
        status: string;
        parse_status: string | null;
        parse_error: string | null;
        failed_for_good: boolean;
        last_error: string | null;
      }[]
    >`
      select path, status, parse_status, parse_error, failed_for_good, last_error
      from regwatch.change_files order by path`;
    return Object.fromEntries(rows.map((r) => [/\/files\/(.+)\.json$/.exec(r.path)![1]!, r]));
  };
  const newValue = async (name: string) => {
    const rows = await t.db.sql`select new_value from regwatch.change_values where tax_id = ${TAX[name]!}`;
    return rows.map((r) => r.new_value);
  };

  it("syncs, marks each bad file alone with its reason, and keeps the good values", async () => {
    const result = await sync();
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("ok");
    const byName = await files();
    for (const name of NAMES.filter((n) => n !== "deep")) expect(byName[name]?.status, name).toBe("fetched");
    expect(byName["good-1"]).toMatchObject({ parse_status: "parsed", parse_error: null });
    expect(byName["good-2"]).toMatchObject({ parse_status: "parsed", parse_error: null });
    expect(byName["before-after"]).toMatchObject({ parse_status: "unrecognised" });
    expect(byName["before-after"]?.parse_error).toContain("changes[0] has no new_value");
    expect(byName.empty).toMatchObject({ parse_status: "unrecognised" });
    expect(byName.empty?.parse_error).toContain("changes is empty");
    expect(byName.nul).toMatchObject({ parse_status: "failed" });
    expect(byName.nul?.parse_error).toContain("holds a NUL character");
    expect(byName.surrogate?.parse_error).toContain("half of a UTF-16 surrogate pair");
    expect(byName["utf-16"]).toMatchObject({ parse_status: "failed" });
    expect(byName.gzip?.parse_error).toContain("gzip-compressed");
    // Nested past the bound: kept as bytes and failed for good before any parser sees it.
    expect(byName.deep).toMatchObject({ status: "failed", failed_for_good: true, parse_status: null });
    expect(byName.deep?.last_error).toContain("nested deeper than 1000 levels");

    expect(await newValue("good-1")).toEqual(["Good One Kft."]);
    expect(await newValue("good-2")).toEqual(["Good Two Kft."]);
    expect(await newValue("windows-1250")).toEqual([NAME]);
    const [profile] = await t.db
      .sql`select name from regwatch.business_profiles where tax_id = ${TAX["windows-1250"]!}`;
    expect(profile).toEqual({ name: NAME });
    for (const name of ["before-after", "empty", "nul", "surrogate", "utf-16", "gzip", "deep"]) {
      expect(await newValue(name), name).toEqual([]);
    }
    // An unrecognised body is kept as received, for a parser added later.
    const [kept] = await t.db
      .sql`select body_json from regwatch.change_files where path like '%/before-after.json'`;
    expect(kept?.body_json).toEqual({
      tax_id: TAX["before-after"],
      changes: [{ heading: "long_name", before: "A", after: "B" }],
    });
  });

  it("lets every later sync and reparse go on", async () => {
    expect((await sync()).error).toBeUndefined();
    const report = await parseStoredFiles(t.db.sql, { selection: "all" });
    expect(report).toMatchObject({
      files: NAMES.length - 1,
      parsed: 3,
      unrecognised: 2,
      unattributed: 0,
      failed: 4,
    });
    const cli = await runCli(["reparse"], { DATABASE_URL: t.url });
    expect(cli).toMatchObject({
      code: 0,
      stdout:
        "Re-parsed 6 change files: 0 parsed (0 heading values), 2 unrecognised, 0 unattributed, 4 failed\n" +
        "Files failed for good tried again from their kept bytes: 0 stored and parsed above, 1 still failed for good (`regwatch status` says why)\n",
    });
    expect(await newValue("good-1")).toEqual(["Good One Kft."]);
    expect(await newValue("windows-1250")).toEqual([NAME]);
  });
});
