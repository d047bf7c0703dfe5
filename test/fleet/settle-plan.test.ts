/**
 * The settle keeper's decisions (src/fleet/settle.ts), pure: which of the jobs a worker's lock ids
 * hold get the queue's lost write again, and which are left alone.
 */
import { describe, expect, it } from "vitest";
import { isConnectionLoss, JobLedger, NEVER_STARTED } from "../../src/fleet/settle.ts";

describe("the settle keeper's plan", () => {
  it("writes a lost end again after the grace, as the job ended", () => {
    const ledger = new JobLedger();
    ledger.started({ id: "1", attempts: 1 });
    ledger.started({ id: "2", attempts: 3 });
    ledger.ended({ id: "1", attempts: 1 }, { ok: true }, 1000);
    ledger.ended({ id: "2", attempts: 3 }, { ok: false, message: "boom" }, 1000);
    const locked = [
      { id: "1", attempts: 1 },
      { id: "2", attempts: 3 },
    ];
    expect(ledger.plan(locked, 5999)).toEqual([]);
    expect(ledger.plan(locked, 6000)).toEqual([
      { id: "1", attempts: 1, action: "complete", message: "" },
      { id: "2", attempts: 3, action: "fail", message: "boom" },
    ]);
  });

  it("leaves a running job, a job the queue let go of, and a job taken again alone", () => {
    const ledger = new JobLedger();
    ledger.started({ id: "1", attempts: 1 });
    ledger.started({ id: "2", attempts: 1 });
    ledger.ended({ id: "2", attempts: 1 }, { ok: false, message: "x" }, 0);
    ledger.started({ id: "3", attempts: 1 });
    ledger.ended({ id: "3", attempts: 1 }, { ok: true }, 0);
    // 1 runs; 2 was unlocked by the queue and taken again (attempt 2) a moment ago; 3 is gone.
    expect(
      ledger.plan(
        [
          { id: "1", attempts: 1 },
          { id: "2", attempts: 2 },
        ],
        60_000,
      ),
    ).toEqual([]);
  });

  it("releases a job locked for this worker that never started here, after the grace", () => {
    const ledger = new JobLedger();
    expect(ledger.plan([{ id: "7", attempts: 2 }], 0)).toEqual([]);
    expect(ledger.plan([{ id: "7", attempts: 2 }], 4999)).toEqual([]);
    expect(ledger.plan([{ id: "7", attempts: 2 }], 5000)).toEqual([
      { id: "7", attempts: 2, action: "fail", message: NEVER_STARTED },
    ]);
    // Started meanwhile: left alone.
    ledger.started({ id: "7", attempts: 2 });
    expect(ledger.plan([{ id: "7", attempts: 2 }], 99_000)).toEqual([]);
  });

  it("takes a lost or refused connection for what it is, and nothing else", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), {
      code: "ECONNREFUSED",
      syscall: "connect",
    });
    expect(isConnectionLoss(refused)).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("server conn crashed?"), { code: "08P01" }))).toBe(true);
    expect(isConnectionLoss(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isConnectionLoss(new TypeError("x is not a function"))).toBe(false);
  });
});
