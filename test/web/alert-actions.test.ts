/** Alert action forms read before anything changes; the return path never leaves the site; passwords. */
import { describe, expect, it } from "vitest";
import { readAction, safeReturn, statusOf } from "../../src/web/alert-actions.ts";
import { hashPassword, passwordProblem, verifyPassword } from "../../src/web/passwords.ts";

const TODAY = "2026-11-25";

describe("readAction", () => {
  it("reads ids (one or several, duplicates dropped), a trimmed note and a snooze day", () => {
    expect(readAction("ack", { ids: ["3", "1", "3"], note: "  ok  " }, TODAY).request).toEqual({
      action: "ack",
      ids: [3, 1],
      note: "ok",
      until: null,
      assignee: null,
    });
    expect(readAction("snooze", { ids: "5", until: TODAY }, TODAY).request).toMatchObject({ until: TODAY });
    expect(readAction("resolve", { ids: "5", note: "" }, TODAY).request?.note).toBeNull();
  });

  it("reads an assignment's user, none meaning nobody", () => {
    expect(readAction("assign", { ids: "4", assignee: " anna " }, TODAY).request?.assignee).toBe("anna");
    expect(readAction("assign", { ids: "4", assignee: "" }, TODAY).request?.assignee).toBeNull();
  });

  it("names every problem at once", () => {
    expect(readAction("delete", { ids: ["x"], note: "a".repeat(2001) }, TODAY).problems).toEqual([
      "action must be one of ack, resolve, snooze, comment, assign",
      '"x" is not an alert id',
      "the note must be at most 2000 characters",
    ]);
    expect(readAction("comment", { ids: "1" }, TODAY).problems).toEqual(["a comment needs a note"]);
    expect(readAction("ack", {}, TODAY).problems).toEqual(["select at least one alert"]);
    expect(readAction("snooze", { ids: "1", until: "2026-11-24" }, TODAY).problems).toEqual([
      "until must be today (2026-11-25) or later",
    ]);
    expect(readAction("snooze", { ids: "1" }, TODAY).problems).toEqual([
      "until must be a date as YYYY-MM-DD",
    ]);
  });

  it("maps actions to statuses; a comment sets none", () => {
    expect(["ack", "resolve", "snooze", "comment"].map((a) => statusOf(a as never))).toEqual([
      "acknowledged",
      "resolved",
      "snoozed",
      null,
    ]);
  });
});

describe("safeReturn", () => {
  it("keeps same-site paths and refuses anything that could leave the site", () => {
    expect(safeReturn("/?list=a&page=2", "/")).toBe("/?list=a&page=2");
    for (const bad of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "",
      3,
    ]) {
      expect(safeReturn(bad, "/")).toBe("/");
    }
  });
});

describe("passwords", () => {
  it("refuses fewer than 12 characters (counted as characters, not bytes)", () => {
    expect(passwordProblem("elevenchars")).toBe("the password must be at least 12 characters long");
    expect(passwordProblem("twelve chars")).toBeNull();
    expect(passwordProblem("ááááááááááá")).not.toBeNull();
  });

  it("hashes with a salt of its own each time and verifies only the right password", async () => {
    const [a, b] = await Promise.all([hashPassword("same password!"), hashPassword("same password!")]);
    expect(a).not.toBe(b);
    expect(await verifyPassword("same password!", a)).toBe(true);
    expect(await verifyPassword("same password?", a)).toBe(false);
    expect(await verifyPassword("same password!", "plain text")).toBe(false);
    expect(await verifyPassword("same password!", "scrypt$0$8$1$AAAA$BBBB")).toBe(false);
  });
});
