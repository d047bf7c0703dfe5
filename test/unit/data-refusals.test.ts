/**
 * Which database errors are a refusal of the data (the same on every try, issue 37 point 4) and
 * which may pass on a repeat: classified by SQLSTATE in one place, src/db/db-errors.ts.
 */
import { describe, expect, it } from "vitest";
import { databaseGone, permanentRefusal } from "../../src/db/db-errors.ts";

const pgError = (code: string) => Object.assign(new Error(`postgres ${code}`), { code });

describe("permanentRefusal", () => {
  it("names data the database refuses whatever the moment, with its SQLSTATE", () => {
    expect(permanentRefusal(pgError("54001"))).toMatch(/stack depth.*SQLSTATE 54001/);
    expect(permanentRefusal(pgError("22P05"))).toMatch(/SQLSTATE 22P05/);
    for (const code of ["54000", "22001", "22003", "22021"])
      expect(permanentRefusal(pgError(code)), code).toContain(`SQLSTATE ${code}`);
  });

  it("finds the code under a wrapper that holds it as its cause", () => {
    const wrapped = new Error("Failed query", { cause: pgError("54001") });
    expect(permanentRefusal(wrapped)).toContain("54001");
  });

  it("leaves what a repeat may change retryable: connections, conflicts, malformed JSON", () => {
    for (const code of [
      "ECONNRESET",
      "CONNECTION_CLOSED",
      "08006",
      "57P01",
      "40001",
      "40P01",
      "53100",
      "22P02",
    ])
      expect(permanentRefusal(pgError(code)), code).toBeUndefined();
    expect(databaseGone(pgError("ECONNRESET"))).toBeDefined();
    expect(permanentRefusal(new Error("no code"))).toBeUndefined();
  });
});
