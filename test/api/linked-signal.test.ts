/**
 * A request's signal follows the client's long-lived ones (the run's stop, the client's close, a
 * key's refusal) only while the request lasts: once released, a later abort of a source no
 * longer reaches it, and a source keeps one listener whatever the number of requests it guarded.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { linkSignals } from "../../src/api/linked-signal.ts";

describe("linkSignals", () => {
  it("aborts with the reason of whichever source aborts first", () => {
    const run = new AbortController();
    const closing = new AbortController();
    const linked = linkSignals(run.signal, undefined, closing.signal);
    expect(linked.signal?.aborted).toBe(false);
    closing.abort(new Error("the client was closed"));
    expect(linked.signal?.aborted).toBe(true);
    expect(linked.signal?.reason).toHaveProperty("message", "the client was closed");
    linked.release();
  });

  it("is aborted from the start when a source already is", () => {
    const run = new AbortController();
    run.abort(new Error("stopped"));
    const linked = linkSignals(new AbortController().signal, run.signal);
    expect(linked.signal?.aborted).toBe(true);
    expect(linked.signal?.reason).toHaveProperty("message", "stopped");
  });

  it("hands back the one source there is, or none", () => {
    const run = new AbortController();
    expect(linkSignals(undefined, run.signal).signal).toBe(run.signal);
    expect(linkSignals(undefined, undefined).signal).toBeUndefined();
  });

  it("lets go of its sources when released: thousands of requests leave one listener and no follower", () => {
    const run = new AbortController();
    const closing = new AbortController();
    const released: AbortSignal[] = [];
    for (let i = 0; i < 5_000; i++) {
      const linked = linkSignals(run.signal, closing.signal);
      if (linked.signal) released.push(linked.signal);
      linked.release();
    }
    const live = linkSignals(run.signal, closing.signal);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(1);
    expect(getEventListeners(closing.signal, "abort")).toHaveLength(1);
    run.abort(new Error("stopped"));
    expect(live.signal?.aborted).toBe(true);
    expect(released.filter((s) => s.aborted)).toHaveLength(0);
  });
});
