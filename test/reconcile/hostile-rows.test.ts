/**
 * Names from tables are checked like names from the CLI: desired rows another system wrote with
 * SQL holding a newline, an ESC, a bidi override, blanks around a list name or digits other than
 * 0-9 are refused by name, nothing is sent for them, and the report cannot be forged by them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  desireList,
  type Harness,
  mutatingRequests,
  outcomes,
  remoteItems,
  startHarness,
  watchableTaxIds,
} from "./harness.ts";

let test: TestDatabase;
let harness: Harness;

beforeAll(async () => {
  test = await createTestDatabase();
  harness = await startHarness(test);
});
afterAll(async () => {
  await harness.close();
  await test.drop();
});

const FORGED = "evil\nreconcile run 1: applied";
const HOSTILE_LISTS = [FORGED, "bidi\u202etsil", " padded", "esc\u001b[2Jlist"];

/** Full-width digits: NFKC reads them as the ASCII tax id, the CLI refuses them. */
function fullWidth(taxId: string): string {
  return [...taxId].map((d) => String.fromCodePoint(0xff10 + Number(d))).join("");
}

describe("desired rows the CLI would refuse", () => {
  it("refuses them by name, sends nothing for them, keeps what they seem to mean, and exits 3", async () => {
    const { emulator, env } = harness;
    const { sql } = test.db;
    const [a, c, b, d] = watchableTaxIds(emulator, 4) as [string, string, string, string];
    await desireList(sql, "clean", [a, c]);
    expect((await runCli(["reconcile"], env)).code).toBe(0);
    expect(remoteItems(emulator, "clean")).toEqual([a, c].sort());

    // Another system writes rows no `regwatch watch` command would accept.
    for (const name of HOSTILE_LISTS) await desireList(sql, name, [d]);
    await sql`update regwatch.desired_items set tax_id = ${fullWidth(c)} where list_name = 'clean' and tax_id = ${c}`;
    await desireList(sql, "clean", [`${b}\n`]);
    emulator.resetLog();

    const dry = await runCli(["reconcile", "--dry-run", "--json"], env);
    expect(dry.code, dry.stderr).toBe(3);
    const report = JSON.parse(dry.stdout) as { status: string; refusedLists: { listName: string }[] };
    expect(report.status).toBe("partial");
    // --json keeps the names exact.
    expect(report.refusedLists.map((r) => r.listName).sort()).toEqual([...HOSTILE_LISTS].sort());

    const run = await runCli(["reconcile"], env);
    expect(run.code).toBe(3);
    // Nothing was sent: no hostile list created, the refused item not added, the mis-written one kept.
    expect(mutatingRequests(emulator)).toEqual([]);
    expect(emulator.listsSnapshot().map((l) => l.list_name)).toEqual(["clean"]);
    expect(remoteItems(emulator, "clean")).toEqual([a, c].sort());

    // Every row is named, escaped: no line of the output starts with a forged headline or holds ESC.
    expect(run.stdout).toContain(
      'x list "evil\\nreconcile run 1: applied"  refused: its name holds a control',
    );
    expect(run.stdout).toContain('x list "bidi\\u{202e}tsil"');
    expect(run.stdout).toContain('x list " padded"  refused: its name has blanks before or after it');
    expect(run.stdout).toContain('x list "esc\\e[2Jlist"');
    expect(run.stdout).toContain(`? 1 item(s) kept for refused desired rows that seem to mean them: ${c}`);
    for (const out of [run.stdout, run.stderr]) {
      expect(out.split("\n").filter((l) => l.startsWith("reconcile run 1: applied"))).toEqual([]);
      expect(out.includes("\u001b") || out.includes("\u202e")).toBe(false);
    }
    expect(run.stderr).toMatch(
      /regwatch: reconcile partial: desired list "evil\\nreconcile run 1: applied" \(a row of desired_lists\)/,
    );
    expect(run.stdout).toMatch(/^reconcile run \d+: partly applied/);

    const refused = (await outcomes(sql)).filter((o) => o.code === 422);
    expect(refused.map((o) => o.taxId).sort()).toEqual([`${b}\n`, fullWidth(c)].sort());
    expect(refused.find((o) => o.taxId === `${b}\n`)!.message).toMatch(
      /^not sent: ".*\\n" holds a control or invisible character \(U\+000A\)/,
    );
    expect(refused.find((o) => o.taxId === fullWidth(c))!.message).toContain(
      `holds digits other than 0-9; ${c} stays on the list while this row stands`,
    );
  });
});
