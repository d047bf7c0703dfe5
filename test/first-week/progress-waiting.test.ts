/**
 * Issue 36: before the registry has answered at all, sync's progress says it is waiting for it
 * (which attempt, in how long), not windows 0/0 with an ETA of 0 s.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createProgressView } from "../../src/commands/progress-view.ts";

/** A stream that is not a terminal, so the view prints plain lines. */
function lines(): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = {
    isTTY: false,
    write: (text: string) => written.push(text) > 0,
  } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-11-27T07:15:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("progress before the first answer", () => {
  it("says it is waiting for the registry, with the next attempt and when it leaves", () => {
    const { stream, written } = lines();
    const view = createProgressView(stream, 5000);
    view.request(false); // a connection refused: no answer
    view.retrying?.({ attempt: 2, maxAttempts: 6, delayMs: 8000 });
    vi.advanceTimersByTime(5000);
    expect(written.at(-1)).toBe("progress: waiting for the registry: no answer yet; attempt 2 of 6 in 3 s\n");
    expect(written.join("")).not.toContain("ETA");
    view.stop();
  });

  it("shows the counts and the ETA once the registry has answered", () => {
    const { stream, written } = lines();
    const view = createProgressView(stream, 5000);
    view.retrying?.({ attempt: 2, maxAttempts: 6, delayMs: 1000 });
    view.request(true);
    view.plan({ windows: 4, files: 0 });
    view.windowDone(false);
    vi.advanceTimersByTime(5000);
    expect(written.at(-1)).toMatch(
      /^progress: windows 1\/4, files 0\/0, failed 0, [\d.]+ req\/s, ETA \d+s\n$/,
    );
    // A retry after the first answer is a passing failure, not waiting.
    view.retrying?.({ attempt: 2, maxAttempts: 6, delayMs: 1000 });
    vi.advanceTimersByTime(5000);
    expect(written.at(-1)).toMatch(/^progress: windows 1\/4/);
    view.stop();
  });
});
