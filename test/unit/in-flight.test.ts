import { describe, expect, it } from "vitest";
import { mayStart } from "../../src/sync/window-pool.ts";

describe("windows in flight", () => {
  it("starts the configured number whatever the limiter says", () => {
    expect(mayStart(0, 16, 64, 5)).toBe(true);
    expect(mayStart(15, 16, 64, 5)).toBe(true);
  });
  it("goes beyond it only while nobody waits at the limiter, and never past the cap", () => {
    expect(mayStart(16, 16, 64, 1)).toBe(false);
    expect(mayStart(16, 16, 64, 0)).toBe(true);
    expect(mayStart(63, 16, 64, 0)).toBe(true);
    expect(mayStart(64, 16, 64, 0)).toBe(false);
  });
});
