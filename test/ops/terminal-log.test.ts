/**
 * Issue 14: on a terminal, log lines go through the progress bar (printed above it, never over
 * it), and retries are visible as one line naming the origin, the status and the next attempt.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.ts";
import { createRegistry } from "../../src/api/registry.ts";
import { describeRetry } from "../../src/api/retry-log.ts";
import { LogRouter } from "../../src/commands/log-router.ts";
import { createProgressView } from "../../src/commands/progress-view.ts";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { type HostileServer, json, startHostileServer } from "../helpers/hostile-server.ts";

/** A stream that says it is a terminal and keeps what was written. */
function fakeTerminal(): NodeJS.WriteStream & { text(): string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & { text(): string };
  let written = "";
  const write = stream.write.bind(stream);
  Object.assign(stream, {
    isTTY: true,
    columns: 200,
    rows: 40,
    write: (chunk: string | Buffer, ...rest: unknown[]) => {
      written += chunk.toString();
      return write(chunk, ...(rest as []));
    },
    text: () => written,
  });
  stream.resume();
  return stream;
}

// Escape sequences (cursor moves, clears) removed: what a person reads, line by line.
const visibleLines = (text: string) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences
    .replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, "")
    .split("\n");

describe("LogRouter", () => {
  it("writes whole lines to its stream, and to the route while one is set", () => {
    const out: string[] = [];
    const router = new LogRouter({ write: (l) => out.push(l) });
    const above: string[] = [];
    router.write('{"msg":"one"}\n');
    const unroute = router.route((l) => above.push(l));
    router.write('{"msg":"two"}\n');
    unroute();
    router.write("three");
    expect(out).toEqual(['{"msg":"one"}\n', "three\n"]);
    expect(above).toEqual(['{"msg":"two"}']);
  });
});

describe("progress bar on a terminal", () => {
  it("prints a log line above the bar, on a line of its own, and draws the bar again below", () => {
    const tty = fakeTerminal();
    const router = new LogRouter({ write: () => expect.unreachable("routed lines must go to the bar") });
    const view = createProgressView(tty, 5000, router);
    view.plan({ windows: 4, files: 0 });
    view.windowDone(false);
    const log = createLogger({ level: "warn", stream: router });
    log.warn({ listKey: "wl_1" }, "something to see");
    // The bar redraws on its own timer; stop() prints what is still waiting, then the bar.
    view.windowDone(true);
    view.stop();
    const lines = visibleLines(tty.text());
    const at = lines.findIndex((l) => l.includes("something to see"));
    expect(at).toBeGreaterThanOrEqual(0);
    // The log line alone on its line: no bar text before or after it.
    expect(lines[at]!.trim().startsWith("{")).toBe(true);
    expect(JSON.parse(lines[at]!.trim())).toMatchObject({ msg: "something to see", listKey: "wl_1" });
    expect(lines.slice(at + 1).some((l) => l.includes("windows 2/4"))).toBe(true);
    // After stop the router writes to its own stream again.
    const out: string[] = [];
    const after = new LogRouter({ write: (l) => out.push(l) });
    createProgressView(tty, 5000, after).stop();
    after.write("x\n");
    expect(out).toEqual(["x\n"]);
  });
});

describe("retries are visible", () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());

  it("logs one warning per retry naming the origin, the status and the next attempt, never the key", async () => {
    const key = "retry-visible-key-0123456789";
    let calls = 0;
    server.answer = (_req, res) => {
      calls++;
      if (calls === 1) json(res, 503, { message: "busy" });
      else json(res, 200, { watch_lists: [] });
    };
    const lines: string[] = [];
    const log = createLogger({ level: "warn", secrets: [key], stream: { write: (l) => lines.push(l) } });
    const config = loadConfig({
      REGWATCH_WATCH_URL: `${server.origin}/api`,
      REGWATCH_API_KEY: key,
      REGWATCH_RETRY_BASE_MS: "400",
    }) as ReturnType<typeof loadConfig> & { watchUrl: string; apiKey: string };
    const clock = new FakeClock();
    const registry = createRegistry(config, { log, clock });
    const { error } = await driveUntilSettled(clock, registry.watch.lists());
    await registry.close();
    expect(error).toBeUndefined();
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ level: 40, origin: server.origin, status: 503, attempt: 1 });
    expect(line.msg).toContain(`GET /v2/lists on ${server.origin}: status 503; attempt 2 of`);
    expect(line.delayMs).toBeGreaterThan(0);
    expect(line.msg).toMatch(/in \d+\.\d s \(at \d\d:\d\d:\d\d UTC\)/);
    expect(lines[0]).not.toContain(key);
    expect(lines[0]).not.toContain("/api/v2");
  });

  it("names a transport failure by its kind and cause", () => {
    const error = new ApiError("NETWORK", "GET /v2/lists: connection failed", {
      endpoint: "GET /v2/lists",
      cause: new Error("connect ECONNREFUSED 127.0.0.1:1"),
    });
    const line = describeRetry(
      {
        endpoint: "GET /v2/lists",
        origin: "http://127.0.0.1:1",
        attempt: 1,
        maxAttempts: 6,
        delayMs: 400,
        error,
      },
      Date.UTC(2024, 0, 2, 8, 0, 0),
    );
    expect(line.message).toBe(
      "GET /v2/lists on http://127.0.0.1:1: NETWORK (connect ECONNREFUSED 127.0.0.1:1); attempt 2 of 6 in 0.4 s (at 08:00:00 UTC)",
    );
    expect(line.fields).toMatchObject({ nextAttemptAt: "2024-01-02T08:00:00.400Z", code: "NETWORK" });
  });
});
