/**
 * `POST /lists/apply` (admins): "apply now", the plan the lists page showed sent to the registry
 * at once as one reconcile run under the run lock. The form carries a fingerprint of the plan it
 * showed and a confirmation; a plan that changed since is refused (read it again), as is a run
 * while another holds the lock. Without the watch interface configured nothing can be sent.
 */
import { createHash } from "node:crypto";
import { LockHeldError } from "../../errors.ts";
import type { Translator } from "../../i18n/messages.ts";
import { reconcile } from "../../reconcile/reconcile.ts";
import { openRegistry } from "../../run/open-registry.ts";
import { fill } from "../fill-message.ts";
import type { RegisterAccountPages, WebDeps } from "../kit.ts";
import { form, line, query } from "../route-schemas.ts";
import { listMembersMessages } from "./list-members-messages.ts";
import { planFromStored, type StoredPlan } from "./lists-plan.ts";

const APPLY = {
  querystring: query(),
  body: form({ plan: line(64), confirm: line(4) }, ["plan"]),
};

/** A short fingerprint of what a plan would send: the same plan, the same fingerprint. */
export function planFingerprint(stored: StoredPlan): string {
  const what = stored.plan.lists.map((l) => [l.listName, l.listKey, l.add, l.remove]);
  const drops = stored.plan.drops?.leftInPlace.map((d) => d.listKey) ?? [];
  return createHash("sha256")
    .update(JSON.stringify([what, drops, [...stored.adoptions]]))
    .digest("hex")
    .slice(0, 32);
}

/** What the lists page needs for its "apply now" form. */
export function applyView(stored: StoredPlan, deps: WebDeps, i18n: Translator) {
  const totals = stored.plan.totals;
  return {
    applyMessages: listMembersMessages(i18n),
    planFingerprint: planFingerprint(stored),
    canReachRegistry: Boolean(deps.config.watchUrl && deps.config.apiKey),
    somethingToApply: totals.create + totals.add + totals.remove > 0 || stored.adoptions.size > 0,
  };
}

export const registerListsApply: RegisterAccountPages = (app, kit) => {
  app.post<{ Body: { plan: string; confirm?: string } }>(
    "/lists/apply",
    { schema: APPLY, preHandler: kit.requireRole("admin") },
    async (request, reply) => {
      const deps = request.deps;
      const M = listMembersMessages(kit.i18n(request));
      const refuse = (message: string, status: number) =>
        kit.render(request, reply, "error", { title: M.applyTitle, message }, status);
      if (request.body.confirm !== "on") return refuse(M.applyNeedsConfirm, 400);
      const { watchUrl, apiKey } = deps.config;
      if (!watchUrl || !apiKey) return refuse(M.applyNotConfigured, 409);
      const stored = await planFromStored(deps.db.sql, deps.config, deps.now());
      if (planFingerprint(stored) !== request.body.plan) return refuse(M.applyStale, 409);
      const registry = openRegistry({ ...deps.config, watchUrl, apiKey }, deps.log, deps.db.sql);
      const report = await reconcile(
        {
          config: deps.config,
          log: deps.log,
          db: deps.db,
          registry: registry.clients,
          usage: registry.usage,
        },
        { trigger: "cli" },
      )
        // The lock is taken at once or not at all: a person waits for no other run.
        .catch((error: unknown) => {
          if (error instanceof LockHeldError) return undefined;
          throw error;
        })
        .finally(() => registry.close());
      if (!report || report.failure instanceof LockHeldError) return refuse(M.applyLocked, 409);
      deps.log.info(
        { user: request.user.name, run: report.runId, status: report.status },
        "console reconcile",
      );
      const search = new URLSearchParams({ applied: String(report.runId), status: report.status });
      return reply.redirect(`/lists?${search}`, 303);
    },
  );
};

/** The confirmation of an applied plan, from the address the apply redirected to. */
export function appliedMessage(q: { applied?: string; status?: string }, i18n: Translator): string | null {
  if (!q.applied || !/^\d{1,15}$/.test(q.applied)) return null;
  if (!REPORTED.includes(q.status ?? "")) return null;
  const key = `runStatus.${q.status}`;
  const status = i18n.has(key) ? i18n.t(key) : q.status!;
  return fill(listMembersMessages(i18n).applyDone, { run: q.applied, status });
}

/** The statuses a reconcile report has (the only ones a confirmation repeats from its address). */
const REPORTED = ["in-sync", "pending", "applied", "partial", "refused", "failed"];
