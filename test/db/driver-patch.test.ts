/**
 * The installed postgres.js carries the fix of patches/postgres+3.4.9.patch. The driver holds a
 * small write for the next turn of the event loop and marks it pending; unpatched, two paths left
 * that mark set for good: a teardown (terminate, the socket's close) cancelled the write but kept
 * the mark, and a write flushed after the connection had closed threw on the missing socket before
 * clearing it (the stray TypeError src/db/connect.ts swallows). Either way the connection never
 * wrote again: its next connect sent no startup message until `connect_timeout` (30 s) ended it,
 * which test/outage/daemon-outage.test.ts met as a run 30 to 60 s late after Postgres restarted.
 * Patched, a teardown drops the held write with its mark, and a flush that finds no socket fails
 * the connection's queries as closed. Both builds of the driver are checked: ours imports the ES
 * module one, graphile-worker's chain the CommonJS one.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../node_modules/postgres/", import.meta.url));

function teardowns(file: string): string[] {
  const source = readFileSync(path.join(root, file), "utf8");
  return [...source.matchAll(/^\s*clearImmediate\(nextWriteTimer\)\n(.*)\n/gm)].map((m) => m[1]!.trim());
}

describe("the installed postgres.js", () => {
  it("is the version the patch was made for", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    expect(manifest.version).toBe("3.4.9");
  });

  it.each(["src/connection.js", "cjs/src/connection.js"])("%s fails a write that finds no socket", (file) => {
    const source = readFileSync(path.join(root, file), "utf8");
    expect(source).toContain(
      "  function nextWrite(fn) {\n    if (!socket) {\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options))",
    );
  });

  it.each(["src/connection.js", "cjs/src/connection.js"])(
    "%s forgets a buffered write on teardown",
    (file) => {
      expect(teardowns(file)).toEqual(["chunk = nextWriteTimer = null", "chunk = nextWriteTimer = null"]);
    },
  );
});
