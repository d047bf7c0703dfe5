import { describe, expect, it } from "vitest";
import { failedRequestOutcomes, NO_ITEM_ANSWER, readBulkResult } from "../../src/reconcile/outcomes.ts";

describe("reading a bulk answer", () => {
  it("reads each add from success or failed, 409 counting as already watched", () => {
    const outcomes = readBulkResult("l", "add", ["a", "b", "c", "d", "e", "f"], {
      success: ["a"],
      failed: [
        { tax_id: "b", code: 409 },
        { tax_id: "c", code: 404 },
        { tax_id: "d", code: 422 },
        { tax_id: "e", code: 429 },
      ],
    });
    expect(outcomes.map((o) => [o.taxId, o.verdict, o.code])).toEqual([
      ["a", "done", null],
      ["b", "already", null],
      ["c", "refused", 404],
      ["d", "refused", 422],
      ["e", "refused", 429],
      ["f", "unanswered", NO_ITEM_ANSWER],
    ]);
    expect(outcomes[1]!.message).toMatch(/already on the list/);
    expect(outcomes[2]!.message).toMatch(/does not know/);
    expect(outcomes[4]!.message).toMatch(/maximum size/);
    expect(outcomes[5]!.message).toMatch(/neither in success nor in failed/);
  });

  it("counts 404 on removal as already gone, and a 409 (not in a removable state) as refused", () => {
    const outcomes = readBulkResult("l", "remove", ["a", "b", "c", "d"], {
      success: ["a"],
      failed: [
        { tax_id: "b", code: 404 },
        { tax_id: "c", code: 409 },
        { tax_id: "d", code: 422 },
      ],
    });
    expect(outcomes.map((o) => [o.verdict, o.code])).toEqual([
      ["done", null],
      ["already", null],
      ["refused", 409],
      ["refused", 422],
    ]);
  });

  it("marks every item of a failed request as unanswered with the reason", () => {
    const outcomes = failedRequestOutcomes("l", "add", ["a", "b"], "POST answered 503");
    expect(
      outcomes.every((o) => o.code === NO_ITEM_ANSWER && o.message === "request failed: POST answered 503"),
    ).toBe(true);
  });
});
