/**
 * The console's pages beyond the inbox and alerts: business history, the change feed and its
 * downloads, payment checks, coverage, runs and lists. The server calls this after its sign-in
 * and CSRF hooks are in place, so every route here needs a session.
 */
import type { RegisterAccountPages } from "../kit.ts";
import { registerBusinessPages } from "./businesses.ts";
import { registerChangesPages } from "./changes.ts";
import { registerCoveragePages } from "./coverage.ts";
import { registerListMembersPages } from "./list-members.ts";
import { registerListsPages } from "./lists.ts";
import { registerListsApply } from "./lists-apply.ts";
import { registerNamesPages } from "./names.ts";
import { registerPaymentPages } from "./payments.ts";
import { registerRulesPages } from "./rules.ts";
import { registerRunsPages } from "./runs.ts";
import { registerSearchPages } from "./search.ts";

export const registerMorePages: RegisterAccountPages = async (app, kit) => {
  for (const register of [
    registerBusinessPages,
    registerChangesPages,
    registerPaymentPages,
    registerCoveragePages,
    registerRunsPages,
    registerListsPages,
    registerSearchPages,
    registerNamesPages,
    registerListsApply,
    registerListMembersPages,
    registerRulesPages,
  ]) {
    await register(app, kit);
  }
};
