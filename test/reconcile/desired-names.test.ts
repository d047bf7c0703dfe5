/**
 * One set of rules for desired names, whoever writes them: what `regwatch watch` accepts is what
 * reconcile accepts from desired_lists and desired_items rows.
 */
import { describe, expect, it } from "vitest";
import { listNameProblem, readDesiredTaxId } from "../../src/desired-names.ts";
import { runCli } from "../helpers/cli.ts";

describe("desired names", () => {
  it("reads tax ids as people write them and refuses hidden characters and foreign digits", () => {
    expect(readDesiredTaxId(" 12345678 ")).toEqual({ ok: true, taxId: "12345678" });
    expect(readDesiredTaxId("12345678-2-41")).toEqual({ ok: true, taxId: "12345678" });
    expect(readDesiredTaxId("12345678\n")).toMatchObject({ ok: false, meant: "12345678" });
    expect(readDesiredTaxId("1234\u200b5678")).toMatchObject({ ok: false, meant: "12345678" });
    expect(readDesiredTaxId("١٢٣٤٥٦٧٨")).toMatchObject({
      ok: false,
      problem: "holds digits other than 0-9",
      meant: "12345678",
    });
    expect(readDesiredTaxId("1234567")).toMatchObject({
      ok: false,
      problem: expect.stringContaining("neither"),
    });
    expect(readDesiredTaxId("1234567")).not.toHaveProperty("meant");
  });

  it("refuses list names with hidden characters, blanks around them, or over 200 characters", () => {
    expect(listNameProblem("Szállítók 2025")).toBeUndefined();
    expect(listNameProblem("a\nb")).toContain("U+000A");
    expect(listNameProblem("a\u202eb")).toContain("U+202E");
    expect(listNameProblem("a ")).toBe("has blanks before or after it");
    expect(listNameProblem("   ")).toBe("is empty");
    expect(listNameProblem("x".repeat(201))).toContain("200");
  });

  it("makes `watch add` refuse what reconcile would refuse, naming it escaped (exit 64)", async () => {
    const env = { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" };
    const list = await runCli(["watch", "add", "--list", "a\u001b[2Jb", "--tax-id", "12345676"], env);
    expect(list.code).toBe(64);
    expect(list.stderr).toContain('list name "a\\e[2Jb" holds a control or invisible character (U+001B)');
    const id = await runCli(["watch", "add", "--list", "a", "--tax-id", "１２３４５６７６"], env);
    expect(id.code).toBe(64);
    expect(id.stderr).toContain("holds digits other than 0-9");
  });
});
