/**
 * Community tax numbers (issue 49, point 1): `HU24380313`, as suppliers' and ERPs' exports give
 * it, names the tax base number 24380313 in a payment batch, in `watch add` and in `watch import`
 * (with a blank or a hyphen after the prefix, in either case), and a batch shows the text as the
 * file wrote it. Another member state's VAT number is refused, naming its country. The built CLI
 * on a real database.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { workbookParts, writeStoredZip } from "../helpers/stored-zip.ts";

const ACCOUNT = "11773016-11111018-00000000";
let t: TestDatabase;
let dir: string;

beforeAll(async () => {
  t = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-community-"));
});
afterAll(async () => {
  await t?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("regwatch payments check", () => {
  it("reads HU + 8 digits as the tax base number and shows the text as the file wrote it", async () => {
    const file = path.join(dir, "batch.csv");
    const rows = ["HU24380313", "HU 24380313", "hu-24380313", "DE123456789"];
    await writeFile(
      file,
      `Adószám;Számlaszám;Összeg\n${rows.map((r) => `${r};${ACCOUNT};100`).join("\n")}\n`,
    );
    const result = await runCli(["payments", "check", file, "--json"], { DATABASE_URL: t.url });
    expect(result.code, result.stderr).toBe(2);
    const checked = JSON.parse(result.stdout).rows as {
      tax_id: string;
      tax_base: string | null;
      verdict: string;
      detail: string;
    }[];
    for (const row of checked.slice(0, 3)) {
      expect(row.verdict, row.tax_id).not.toBe("invalid_tax_id");
      expect(row.tax_base).toBe("24380313");
    }
    expect(checked.map((r) => r.tax_id)).toEqual(rows);
    expect(checked[3]).toMatchObject({ verdict: "invalid_tax_id", tax_base: null });
    expect(checked[3]!.detail).toContain("another member state (DE)");
  });

  it("reads them from a workbook as well", async () => {
    const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const parts = workbookParts("", 0);
    delete parts["xl/sharedStrings.xml"];
    parts["xl/worksheets/sheet1.xml"] =
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
      `<row r="1">${cell("A1", "Adószám")}${cell("B1", "Számlaszám")}${cell("C1", "Összeg")}</row>` +
      `<row r="2">${cell("A2", "HU 24380313")}${cell("B2", ACCOUNT)}<c r="C2"><v>100</v></c></row>` +
      `</sheetData></worksheet>`;
    const file = path.join(dir, "batch.xlsx");
    await writeStoredZip(file, parts);
    const result = await runCli(["payments", "check", file, "--json"], { DATABASE_URL: t.url });
    expect(result.code, result.stderr).toBe(2);
    const [row] = JSON.parse(result.stdout).rows;
    expect(row).toMatchObject({ tax_id: "HU 24380313", tax_base: "24380313" });
    expect(row.verdict).not.toBe("invalid_tax_id");
  });
});

describe("regwatch watch add and import", () => {
  it("desires the tax base number of a community tax number and refuses another member state's", async () => {
    const env = { DATABASE_URL: t.url };
    const added = await runCli(["watch", "add", "--list", "eu", "--tax-id", "HU 24380313"], env);
    expect(added.stderr).toBe("");
    expect(added.stdout).toContain("24380313 added to list");
    const foreign = await runCli(["watch", "add", "--list", "eu", "--tax-id", "DE123456789"], env);
    expect(foreign.code).toBe(64);
    expect(foreign.stderr).toContain('"DE123456789" is a VAT number of another member state (DE)');

    const file = path.join(dir, "import.csv");
    await writeFile(file, "adószám;név\nhu-10000001;Egy\nHU10000018;Kettő\n");
    const imported = await runCli(["watch", "import", "--list", "eu", file], env);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    const items = await t.db.sql<{ tax_id: string }[]>`
      select tax_id from regwatch.desired_items where list_name = 'eu' order by tax_id`;
    expect(items.map((i) => i.tax_id)).toEqual(["10000001", "10000018", "24380313"]);

    await writeFile(file, "adószám\nDE123456789\n");
    const refused = await runCli(["watch", "import", "--list", "eu", file], env);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain(
      'line 2: tax id "DE123456789" is a VAT number of another member state (DE)',
    );
  });
});

describe("regwatch changes --tax-id", () => {
  it("takes a community tax number and names another member state's", async () => {
    const env = { DATABASE_URL: t.url };
    const read = await runCli(["changes", "--tax-id", "HU-24380313", "--json"], env);
    expect(read.stderr).toBe("");
    expect(read.code).toBe(0);
    const foreign = await runCli(["changes", "--tax-id", "DE123456789"], env);
    expect(foreign.code).toBe(64);
    expect(foreign.stderr).toContain("another member state (DE)");
  });
});
