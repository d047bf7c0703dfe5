/**
 * Issue 34, point 3 on the command line: `watch import` reads a supplier master as a Hungarian ERP
 * writes it (Windows-1250, a title line, Partner / Adószám / Cégjegyzékszám headers and columns it
 * does not need); the names it gives are kept with their file and shown as given by `watch list`
 * and `alerts list` until the registry's own name is known (a lookup against the emulator).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
let emulator: RunningEmulator;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 21,
    businesses: 2000,
    now: "2024-03-01T08:00:00Z",
    frozenClock: true,
  });
  env = { DATABASE_URL: test.url, REGWATCH_SEARCH_URL: emulator.url, REGWATCH_API_KEY: emulator.apiKey };
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-names-"));
}, 120_000);
afterAll(async () => {
  await emulator?.close();
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("watch import of a Hungarian supplier master", () => {
  it("reads Windows-1250 with Hungarian headers, keeps the names with their file and shows them as given", async () => {
    const [a, b] = emulator.sampleBusinesses({ type: "companies", limit: 2 });
    const file = path.join(dir, "supplier-master.csv");
    const text = [
      "Szállítói törzsadatok 2026. 11. 27.",
      "Partner;Adószám;Cégjegyzékszám;Cím;Megjegyzés",
      `Őrség Fűrésztelep Kft.;${a!.tax_id}-2-41;;Szentgotthárd, Fő út 1.;fa`,
      `Második Árvíztűrő Bt.;;${b!.registration_number};Győr;`,
    ].join("\r\n");
    await writeFile(file, iconv.encode(`${text}\r\n`, "windows-1250"));
    const imported = await runCli(["watch", "import", "--list", "suppliers", file], env);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain("2 row(s), 2 business(es): 2 added");
    expect(imported.stdout).toContain("read as windows-1250");
    expect(imported.stdout).toContain('ignored column(s) "Cím"');
    const given = await test.db.sql<{ tax_id: string; name: string; source: string }[]>`
      select tax_id, name, source from regwatch.given_names order by name`;
    expect(given).toEqual([
      { tax_id: String(b!.tax_id), name: "Második Árvíztűrő Bt.", source: "file supplier-master.csv" },
      { tax_id: String(a!.tax_id), name: "Őrség Fűrésztelep Kft.", source: "file supplier-master.csv" },
    ]);
    const notes = await test.db.sql<{ note: string | null }[]>`
      select note from regwatch.desired_items where tax_id = ${String(a!.tax_id)}`;
    expect(notes).toEqual([{ note: "fa" }]);

    // The registration number was resolved through the search, whose record names b: its own
    // name wins. a has no search record: its name is shown as given in the file.
    const listed = await runCli(["watch", "list", "--list", "suppliers"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("Őrség Fűrésztelep Kft. (as given in supplier-master.csv)");
    expect(listed.stdout).toContain(String(b!.full_name));
    expect(listed.stdout).not.toContain("Második Árvíztűrő Bt.");

    // Once the registry names a, its own name replaces the given one.
    const looked = await runCli(["lookup", "reg-number", String(a!.registration_number)], env);
    expect(looked.code).toBe(0);
    const after = await runCli(["watch", "list", "--list", "suppliers"], env);
    expect(after.stdout).toContain(String(a!.full_name));
    expect(after.stdout).not.toContain("as given in");
  });

  it("keeps who gave a name by hand and shows it as given by them", async () => {
    const [c] = emulator.sampleBusinesses({ type: "self_employed", limit: 1 });
    const added = await runCli(
      ["watch", "add", "--list", "manual", "--tax-id", String(c!.tax_id), "--name", "Kézzel Adott Név"],
      { ...env, USER: "anna" },
    );
    expect(added.code).toBe(0);
    const [given] = await test.db.sql<{ source: string }[]>`
      select source from regwatch.given_names where tax_id = ${String(c!.tax_id)}`;
    expect(given!.source).toMatch(/^user \S/);
    const listed = await runCli(["watch", "list", "--list", "manual"], env);
    expect(listed.stdout).toMatch(/Kézzel Adott Név \(as given by \S+\)/);
  });

  it("names every problem of a Hungarian file with its line", async () => {
    const file = path.join(dir, "rossz.csv");
    await writeFile(
      file,
      iconv.encode("Név;Adószám;Adóazonosító jel\r\nX;10000001;10000001\r\n", "windows-1250"),
    );
    const result = await runCli(["watch", "import", "--list", "bad", file], env);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(
      'line 1: columns "Adószám", "Adóazonosító jel" all give the tax_id column',
    );
  });
});
