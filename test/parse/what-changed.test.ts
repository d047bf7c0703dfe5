/**
 * End to end against the emulator and Postgres: a sync parses every fetched file into
 * change_values and business_profiles; unknown bodies stay intact and marked; a parser added
 * later fixes them without a request; business_as_of and `regwatch changes` show the values.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { PARSERS } from "../../src/parse/parse-body.ts";
import { parseStoredFiles } from "../../src/parse/parse-files.ts";
import type { ChangeFileParser, StoredBody } from "../../src/parse/types.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";

const MORNING = "2024-03-10T08:00:00+01:00";
const TODAY = "2024-03-10";

/** The SQL of a docs/queries.md section, with current_date pinned to the emulator's day. */
async function documentedQuery(title: string): Promise<string> {
  const text = await readFile(new URL("../../docs/queries.md", import.meta.url), "utf8");
  const section = text.split(`## ${title}\n`)[1];
  const sql = section?.split("```sql\n")[1]?.split("```")[0];
  if (!sql) throw new Error(`docs/queries.md has no query titled "${title}"`);
  return sql.replaceAll("current_date", `'${TODAY}'::date`);
}
const SEEDED_DAY = "2024-03-05";

interface FileChange {
  heading: string;
  old_value?: unknown;
  new_value?: unknown;
  tax_id?: string;
  chapter?: string;
}

/** A heading's net step from its entries in one file: the one no other entry leads into, to the one leading nowhere. */
function netStep(entries: readonly FileChange[]): [unknown, unknown] {
  const text = (v: unknown) => JSON.stringify(v ?? null);
  const first = entries.find((e) => !entries.some((o) => o !== e && text(o.new_value) === text(e.old_value)));
  const last = entries.find((e) => !entries.some((o) => o !== e && text(o.old_value) === text(e.new_value)));
  return [(first ?? entries[0]!).old_value ?? null, (last ?? entries.at(-1)!).new_value ?? null];
}

describe("what changed, after a sync", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  let companies: string[];

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 23,
      businesses: 1500,
      now: MORNING,
      frozenClock: true,
      rateLimit: 200,
    });
    companies = emulator.sampleBusinesses({ type: "companies", limit: 4 }).map((b) => String(b.tax_id));
    for (const taxId of companies) {
      emulator.addChange({
        tax_id: taxId,
        change: SEEDED_DAY,
        chapter: "finance",
        changed_headings: ["bank_accounts"],
      });
    }
    const others = sampleTaxIds(emulator, 12).filter((id) => !companies.includes(id));
    await seedList(emulator, {
      name: "suppliers",
      createdAt: "2024-02-15",
      taxIds: [...companies, ...others],
    });
    t = await createTestDatabase();
    const result = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
    expect(result.error).toBeUndefined();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("holds exactly the old and new values of every fetched file", async () => {
    const { sql } = t.db;
    const files = await sql<{ path: string; parse_status: string | null }[]>`
      select path, parse_status from regwatch.change_files where status = 'fetched' order by path`;
    expect(files.length).toBeGreaterThan(10);
    expect(files.every((f) => f.parse_status === "parsed")).toBe(true);
    const expected: string[] = [];
    for (const file of files) {
      // Read again from the emulator, independently of what was stored.
      const response = await fetch(file.path, { headers: { "x-api-key": emulator.apiKey } });
      const content = (await response.json()) as { tax_id?: string; chapter?: string; changes: FileChange[] };
      const changes = await sql<
        { id: number; tax_id: string; chapter: string; changed_headings: string[] }[]
      >`
        select id::int, tax_id, chapter, changed_headings from regwatch.changes where path = ${file.path}`;
      // Each change takes the entries naming its business (and chapter, when named), for the headings it lists.
      for (const change of changes) {
        for (const heading of change.changed_headings) {
          const entries = content.changes.filter(
            (c) =>
              c.heading === heading &&
              (c.tax_id ?? content.tax_id ?? change.tax_id) === change.tax_id &&
              (c.chapter ?? content.chapter ?? change.chapter) === change.chapter,
          );
          if (entries.length === 0) continue;
          expected.push(JSON.stringify([change.id, heading, ...netStep(entries)]));
        }
      }
    }
    const stored = await sql<
      { change_id: number; heading: string; old_value: unknown; new_value: unknown }[]
    >`
      select change_id::int, heading, old_value, new_value from regwatch.change_values`;
    expect(
      stored.map((r) => JSON.stringify([r.change_id, r.heading, r.old_value, r.new_value])).sort(),
    ).toEqual(expected.sort());
  });

  it("keeps a profile per business with each heading's newest value", async () => {
    const { sql } = t.db;
    const [row] = await sql<{ missing: number }[]>`
      select count(*)::int as missing from (select distinct tax_id from regwatch.change_values) v
      where not exists (select 1 from regwatch.business_profiles p where p.tax_id = v.tax_id)`;
    expect(row!.missing).toBe(0);
    const newest = await sql<{ tax_id: string; heading: string; as_of: string }[]>`
      select distinct on (tax_id, heading) tax_id, heading, to_char(change_date, 'YYYY-MM-DD') as as_of
      from regwatch.change_values order by tax_id, heading, change_date desc`;
    const profiles = await sql<
      { tax_id: string; headings: Record<string, { as_of: string; source: string }> }[]
    >`
      select tax_id, headings from regwatch.business_profiles`;
    const byId = new Map(profiles.map((p) => [p.tax_id, p.headings]));
    for (const n of newest) {
      expect(byId.get(n.tax_id)?.[n.heading]).toMatchObject({ as_of: n.as_of, source: "change_file" });
    }
  });

  it("returns the old account the day before a bank-account change and the new one on it", async () => {
    const { sql } = t.db;
    // A seeded company whose only bank-account change in the covered days is the seeded one.
    const rows = await sql<{ tax_id: string; old_value: unknown; new_value: unknown }[]>`
      select tax_id, old_value, new_value from regwatch.change_values
      where heading = 'bank_accounts' and tax_id = any(${companies}::text[]) and change_date = ${SEEDED_DAY}
        and tax_id in (select tax_id from regwatch.change_values where heading = 'bank_accounts'
                       group by tax_id having count(*) = 1)`;
    expect(rows.length).toBeGreaterThan(0);
    const seeded = rows[0]!;
    expect(seeded.old_value).not.toEqual(seeded.new_value);
    const [asOf] = await sql<{ before: Record<string, unknown>; on: Record<string, unknown> }[]>`
      select regwatch.business_as_of(${seeded.tax_id}, '2024-03-04') as before,
             regwatch.business_as_of(${seeded.tax_id}, ${SEEDED_DAY}) as on`;
    expect(asOf!.before.bank_accounts).toEqual(seeded.old_value);
    expect(asOf!.on.bank_accounts).toEqual(seeded.new_value);

    const bank = await sql<{ added: string[]; removed: string[] }[]>`
      select added, removed from regwatch.v_bank_account_changes
      where tax_id = ${seeded.tax_id} and change_date = ${SEEDED_DAY}`;
    const accounts = (v: unknown) => (v as { bank_account: string }[]).map((a) => a.bank_account);
    expect(bank[0]!.added).toEqual(
      accounts(seeded.new_value)
        .filter((a) => !accounts(seeded.old_value).includes(a))
        .sort(),
    );
    expect(bank[0]!.removed).toEqual(
      accounts(seeded.old_value)
        .filter((a) => !accounts(seeded.new_value).includes(a))
        .sort(),
    );

    // `changes --json` shows the name an operator gave, and both accounts.
    const env = { DATABASE_URL: t.url };
    const named = await runCli(
      ["watch", "add", "--list", "suppliers", "--tax-id", seeded.tax_id, "--name", "Seeded Supplier Kft."],
      env,
    );
    expect(named.stderr).toBe("");
    const feed = await runCli(
      [
        "changes",
        "--json",
        "--since",
        "2024-03-01",
        "--until",
        "2024-03-09",
        "--heading",
        "bank_accounts",
        "--tax-id",
        seeded.tax_id,
      ],
      env,
    );
    expect(feed.code).toBe(0);
    const listed = JSON.parse(feed.stdout) as Array<Record<string, unknown>>;
    expect(listed).toEqual([
      expect.objectContaining({
        changeDate: SEEDED_DAY,
        taxId: seeded.tax_id,
        businessName: "Seeded Supplier Kft.",
        listNames: ["suppliers"],
        heading: "bank_accounts",
        oldValue: seeded.old_value,
        newValue: seeded.new_value,
      }),
    ]);
    const text = await runCli(["changes", "--since", "2024-03-01", "--tax-id", seeded.tax_id], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `${SEEDED_DAY}  Seeded Supplier Kft. (${seeded.tax_id})  [suppliers]  bank_accounts: `,
    );
    expect(text.stdout).toContain(` → ${accounts(seeded.new_value).join(", ")}`);
    const nothing = await runCli(["changes", "--since", "2030-01-01"], env);
    expect(nothing).toMatchObject({ code: 0, stdout: "No changes since 2030-01-01.\n" });
    expect((await runCli(["changes", "--since", "2024-02-30"], env)).code).toBe(64);
    expect((await runCli(["changes", "--tax-id", "12"], env)).code).toBe(64);
    expect((await runCli(["changes", "--json", "--csv"], env)).code).toBe(64);
  }, 240_000);

  it("marks XML and JSON of another shape unrecognised, bodies intact; a later parser reads them without a request", async () => {
    const { sql } = t.db;
    const [xmlPath, otherPath] =
      // The XML one first: a file of a single change listing a single heading (not the accounts a later
      // test reads as lists), which its one value fills.
      (
        await sql<{ path: string }[]>`
        select f.path from regwatch.change_files f
        where f.status = 'fetched'
        order by (cardinality(f.change_ids) = 1 and (select cardinality(c.changed_headings) = 1
                                                             and c.changed_headings[1] <> 'bank_accounts'
                                                      from regwatch.changes c where c.id = f.change_ids[1])) desc,
                 f.path
        limit 2`
      ).map((r) => r.path);
    // A heading the file's change lists: only those take values.
    const [listed] = await sql<{ heading: string }[]>`
      select c.changed_headings[1] as heading from regwatch.changes c where c.path = ${xmlPath!} limit 1`;
    const xml = `<change><heading>${listed!.heading}</heading><new>1111 Budapest, Fő utca 1.</new></change>`;
    const other = { records: [{ field: "address", to: "x" }] };
    // As if the registry had served these bodies.
    await sql`update regwatch.change_files set content_type = 'application/xml', body_json = null,
              body_bytes = ${Buffer.from(xml)}, parse_status = null where path = ${xmlPath!}`;
    await sql`update regwatch.change_files set body_json = ${sql.json(other)}, parse_status = null
              where path = ${otherPath!}`;
    await parseStoredFiles(sql);
    const marked = await sql<
      {
        path: string;
        parse_status: string;
        parse_error: string;
        body_json: unknown;
        body_bytes: Buffer | null;
      }[]
    >`
      select path, parse_status, parse_error, body_json, body_bytes from regwatch.change_files
      where path in (${xmlPath!}, ${otherPath!}) order by path = ${xmlPath!} desc`;
    expect(marked[0]).toMatchObject({
      parse_status: "unrecognised",
      parse_error: "no parser recognises a body of type application/xml",
    });
    expect(marked[0]!.body_bytes!.toString()).toBe(xml);
    expect(marked[1]).toMatchObject({ parse_status: "unrecognised", body_json: other });
    expect(marked[1]!.parse_error).toContain("JSON of an unknown shape");

    const status = await runCli(["status"], { DATABASE_URL: t.url });
    expect(status.stdout).toMatch(
      /Parsed: \d+ parsed, 2 unrecognised, 0 unattributed, 0 failed, 0 not parsed yet/,
    );

    const xmlParser: ChangeFileParser = {
      name: "xml-test",
      parse: (body: StoredBody) => {
        const m = /<heading>(.*)<\/heading><new>(.*)<\/new>/.exec(body.bytes?.toString() ?? "");
        return m ? [{ heading: m[1]!, oldValue: null, newValue: m[2]! }] : null;
      },
    };
    emulator.resetLog();
    const report = await parseStoredFiles(sql, { selection: "retry", parsers: [...PARSERS, xmlParser] });
    expect(report).toMatchObject({ files: 2, parsed: 1, unrecognised: 1 });
    expect(emulator.requests()).toEqual([]);
    const values = await sql`select heading, new_value from regwatch.change_values where path = ${xmlPath!}`;
    expect(values.map((v) => ({ ...v }))).toEqual([
      { heading: listed!.heading, new_value: "1111 Budapest, Fő utca 1." },
    ]);

    const cli = await runCli(["reparse"], { DATABASE_URL: t.url });
    expect(cli).toMatchObject({
      code: 0,
      stdout:
        "Re-parsed 1 change files: 0 parsed (0 heading values), 1 unrecognised, 0 unattributed, 0 failed\n",
    });
  }, 180_000);

  it("answers the documented questions from synced data", async () => {
    const { sql } = t.db;
    const suppliers = await sql.unsafe(
      await documentedQuery("Suppliers whose bank account changed in the last 30 days, with the new account"),
    );
    const expected = await sql`
      select to_char(cv.change_date, 'YYYY-MM-DD') as day, cv.tax_id, cv.old_value, cv.new_value
      from regwatch.change_values cv
      where cv.heading = 'bank_accounts' and cv.change_date >= ${TODAY}::date - 30
      order by cv.change_date desc, cv.tax_id`;
    expect(expected.length).toBeGreaterThanOrEqual(companies.length);
    const accounts = (v: unknown) =>
      ((v as { bank_account: string }[] | null) ?? []).map((a) => a.bank_account);
    expect(suppliers.map((r) => [r.tax_id, r.new_accounts, r.old_accounts])).toEqual(
      expected.map((e) => {
        const before = accounts(e.old_value);
        const after = accounts(e.new_value);
        return [
          e.tax_id,
          after.filter((a) => !before.includes(a)).sort(),
          before.filter((a) => !after.includes(a)).sort(),
        ];
      }),
    );

    const taxId = companies[0]!;
    const query = (await documentedQuery("Company X before and after its last change")).replace(
      "12345678",
      taxId,
    );
    const [row] = await sql.unsafe(query);
    const values = await sql<{ day: string; heading: string; old_value: unknown; new_value: unknown }[]>`
      select to_char(change_date, 'YYYY-MM-DD') as day, heading, old_value, new_value from regwatch.change_values
      where tax_id = ${taxId} order by change_date, change_id`;
    const lastDay = values.at(-1)!.day;
    const onLast = values.filter((v) => v.day === lastDay);
    expect(row!.headings).toEqual([...new Set(onLast.map((v) => v.heading))].sort());
    for (const v of onLast) {
      const newest = onLast.filter((o) => o.heading === v.heading).at(-1)!;
      expect(row!.after[v.heading]).toEqual(newest.new_value);
      const earlier = values.filter((o) => o.heading === v.heading && o.day < lastDay).at(-1);
      // Before: the last earlier value, else what that day's first change replaced.
      const firstThatDay = onLast.find((o) => o.heading === v.heading)!;
      expect(row!.before[v.heading]).toEqual(earlier ? earlier.new_value : firstThatDay.old_value);
    }
  });
});
