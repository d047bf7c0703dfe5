/**
 * The installed postgres.js carries the fix of patches/postgres+3.4.9.patch: both of its teardown
 * paths (terminate, and the socket's close) drop a write buffered for the next turn of the event
 * loop together with its pending mark. Unpatched, a connection closed while such a write waited
 * never wrote again, and its next connect sent no startup message until `connect_timeout` (30 s)
 * ended it; test/outage/daemon-outage.test.ts met it as a run that came 30 s late. Both builds of
 * the driver are checked: ours imports the ES module one, graphile-worker's chain the CommonJS one.
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

  it.each(["src/connection.js", "cjs/src/connection.js"])(
    "%s forgets a buffered write on teardown",
    (file) => {
      expect(teardowns(file)).toEqual(["chunk = nextWriteTimer = null", "chunk = nextWriteTimer = null"]);
    },
  );
});
