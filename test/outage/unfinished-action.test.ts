/**
 * Issue 48, point 7: the command runner's safety net. An action that never settles used to end
 * its process with exit 0 once Node's event loop drained; now it exits non-zero with one line
 * saying the command ended without finishing, and why when the database was lost.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runProcess } from "../helpers/cli.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/unsettled-action.ts", import.meta.url));

function runUnsettled(mode: string) {
  return runProcess(process.execPath, ["--import", "tsx", FIXTURE, mode], {}, 60_000, process.cwd());
}

describe("a command whose action never settles", () => {
  it("exits 70 with one line when nothing says why", async () => {
    const { code, stdout, stderr } = await runUnsettled("no-reason");
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "regwatch: the command ended without finishing: its work waited on something that will never answer (a bug of regwatch; please report it)\n",
    );
    expect(code).toBe(70);
  });

  it("exits 1 with the database's message once the database was lost", async () => {
    const { code, stderr } = await runUnsettled("database-lost");
    expect(stderr).toBe(
      "regwatch: the command ended without finishing: database problem: the connection to the database was lost (ECONNRESET)\n",
    );
    expect(code).toBe(1);
  });
});
