/** The retention policy, pure: every kind's cut-off day, action and rule in words. */
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../../src/config-schema.ts";
import { removedMarkerOf } from "../../src/removed-marker.ts";
import { retentionRules } from "../../src/retention/policy.ts";

const SETTINGS = {
  representatives: DEFAULTS.retainRepresentativesDays,
  soleProprietors: DEFAULTS.retainSoleProprietorsDays,
  changeBodies: DEFAULTS.retainChangeBodiesDays,
  paymentRows: DEFAULTS.retainPaymentRowsDays,
  paymentFiles: DEFAULTS.retainPaymentFilesDays,
  alertReplies: DEFAULTS.retainAlertRepliesDays,
  signIns: DEFAULTS.retainSignInsDays,
  batch: DEFAULTS.retentionBatch,
};

describe("retention rules", () => {
  it("gives every kind its cut-off day, action and rule in words", () => {
    const rules = retentionRules(SETTINGS, "2026-12-06");
    expect(rules.map((r) => [r.kind, r.action, r.before])).toEqual([
      ["representatives", "pseudonymised", "2021-12-06"],
      ["sole_proprietors", "pseudonymised", "2021-12-06"],
      ["change_bodies", "removed", "2025-11-01"],
      ["payment_rows", "removed", "2018-12-06"],
      ["payment_files", "removed", "2026-12-05"],
      ["alert_replies", "pseudonymised", "2026-09-07"],
      ["sign_ins", "removed", "2026-09-07"],
    ]);
    expect(rules[3]!.policy).toBe("payment_rows: 2922 days (before 2018-12-06)");
  });

  it("knows the marker in both its forms and nothing else", () => {
    expect(removedMarkerOf({ removed: "retention", on: "2026-12-06" })).toEqual({ on: "2026-12-06" });
    expect(removedMarkerOf("(removed under retention policy)")).toEqual({ on: undefined });
    expect(removedMarkerOf({ removed: "yes" })).toBeUndefined();
    expect(removedMarkerOf([{ name: "Kovács Anna" }])).toBeUndefined();
    expect(removedMarkerOf(null)).toBeUndefined();
  });
});
