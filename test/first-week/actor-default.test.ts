/**
 * Issue 36: every command that records a person takes `--by`, and without it records the
 * operating-system user (as `alerts rule add` already did); a blank `--by` is refused.
 */
import { userInfo } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test.drop();
});

describe("who acts, when --by is not given", () => {
  it("payments verify records the operating-system user", async () => {
    const env = { DATABASE_URL: test.url };
    const result = await runCli(
      ["payments", "verify", "10400009-44556679-00000000", "--tax-id", "13876548"],
      env,
    );
    expect(result.stderr).not.toContain("required option");
    expect(result.code, result.stderr).toBe(0);
    const listed = await runCli(["payments", "verifications", "--json"], env);
    const rows = JSON.parse(listed.stdout) as { verified_by: string }[];
    expect(rows.map((r) => r.verified_by)).toEqual([userInfo().username]);
  });

  it("alerts ack takes no --by and refuses a blank one", async () => {
    const env = { DATABASE_URL: test.url };
    const withoutBy = await runCli(["alerts", "ack", "987654"], env);
    expect(withoutBy.stderr).not.toContain("required option");
    expect(withoutBy.stderr).toContain("987654");
    const blank = await runCli(["alerts", "ack", "987654", "--by", "  "], env);
    expect(blank.code).toBe(64);
    expect(blank.stderr).toContain("--by must name who is acting");
  });
});
