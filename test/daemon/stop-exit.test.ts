/**
 * A stopped daemon ends a second after its "stopped" line at the latest, whatever is still open (a
 * driver's reconnect timer after a database outage waits up to 20 s), with the status of its
 * stop, and says what was still open; with nothing left open it ends at once, without that line.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const RUN_TS = fileURLToPath(new URL("../../bin/run-ts.js", import.meta.url));
const LIFECYCLE = fileURLToPath(new URL("../../src/daemon/lifecycle.ts", import.meta.url));
const LOGGER = fileURLToPath(new URL("../../src/logger.ts", import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), "regwatch-stop-exit-"));

/** Runs finishStop (clean or not) in a process of its own that holds a timer of `holdMs` open. */
function stopWith(clean: boolean, holdMs: number) {
  const file = path.join(dir, `stop-${clean}-${holdMs}.mts`);
  writeFileSync(
    file,
    [
      `import { Cleanups, finishStop } from ${JSON.stringify(LIFECYCLE)};`,
      `import { createLogger } from ${JSON.stringify(LOGGER)};`,
      `const log = createLogger({ level: "info" });`,
      `if (${holdMs} > 0) setTimeout(() => {}, ${holdMs});`,
      `process.exitCode = await finishStop(log, new Cleanups(log), Date.now() + 1000, ${clean});`,
    ].join("\n"),
  );
  const child = spawn(process.execPath, [RUN_TS, file], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c;
  });
  return new Promise<{ code: number | null; msgs: Array<{ msg: string; open?: string[] }> }>((resolve) =>
    child.on("exit", (code) =>
      resolve({
        code,
        msgs: stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l)),
      }),
    ),
  );
}

describe("the end of a daemon's stop", () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // The timer held open is far longer than the test's own timeout: only the forced end passes.
  it("ends with 0 after a clean stop though a timer is still open, and names it", async () => {
    const { code, msgs } = await stopWith(true, 600_000);
    expect(code).toBe(0);
    expect(msgs.map((m) => m.msg)).toEqual(["stopped", "exiting: still open a second after the stop"]);
    expect(msgs[1]!.open).toContain("Timeout");
  }, 60_000);

  it("ends with 1 after a stop that outlived its bound", async () => {
    const { code, msgs } = await stopWith(false, 600_000);
    expect(code).toBe(1);
    expect(msgs.at(-1)!.msg).toBe("exiting: still open a second after the stop");
  }, 60_000);

  it("ends at once, and says nothing more, when nothing is left open", async () => {
    const { code, msgs } = await stopWith(true, 0);
    expect(code).toBe(0);
    expect(msgs.map((m) => m.msg)).toEqual(["stopped"]);
  }, 60_000);
});
