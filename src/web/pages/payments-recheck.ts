/**
 * POST /payments/{batch_id}/recheck (reviewer or admin): "Check again" on a batch page. The rows
 * the batch stored are judged anew with what regwatch knows now (a verification recorded since, a
 * sync, with "online" the registry's current records) into a new batch linked to the old one,
 * whose page the answer leads to; the old batch keeps its verdicts.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { requireSearch } from "../../config.ts";
import { localDateTime } from "../../dates.ts";
import { checkStoredBatch } from "../../payments/check-again.ts";
import { startOnline } from "../../payments/check-chunk.ts";
import { openSearch } from "../../run/open-registry.ts";
import type { PageKit } from "../kit.ts";
import { form, line, query } from "../route-schemas.ts";
import { readBatch } from "../sql/payments.ts";

export const RECHECK = {
  params: { type: "object", properties: { id: line(40) }, required: ["id"] },
  querystring: query(),
  body: form({ online: line(4) }),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function recheckHandler(kit: PageKit) {
  return async (
    request: FastifyRequest<{ Params: { id: string }; Body: { online?: string } }>,
    reply: FastifyReply,
  ) => {
    const deps = request.deps;
    const i18n = kit.i18n(request);
    const id = request.params.id.toLowerCase();
    const batch = UUID.test(id) ? await readBatch(deps.db.sql, id) : undefined;
    if (!batch) {
      const message = i18n.t("payments.noBatch", { id: request.params.id });
      return kit.render(request, reply, "error", { title: i18n.t("payments.noBatch.title"), message }, 404);
    }
    const online = request.body?.online === "1";
    if (online && (!deps.config.searchUrl || !deps.config.searchApiKey)) {
      return kit.render(
        request,
        reply,
        "error",
        { title: i18n.t("recheck.refusedTitle"), message: i18n.t("recheck.searchNotSet") },
        400,
      );
    }
    const options = {
      holdDays: batch.holdDays ?? deps.config.paymentHoldDays,
      today: localDateTime(deps.now(), deps.config.registryTz).date,
      recheckDays: deps.config.paymentRecheckDays,
      acceptUnconfirmed: deps.config.paymentAcceptUnconfirmed,
      timeZone: deps.config.registryTz,
      voice: "console" as const,
      by: request.user.name,
    };
    let batchId: string | null;
    if (online) {
      requireSearch(deps.config);
      const search = await openSearch(deps.config, deps.log, deps.db.sql);
      try {
        batchId = (
          await checkStoredBatch(deps.db, batch, { ...options, online: startOnline(deps.db, search.client) })
        ).batchId;
      } finally {
        await search.close().catch(() => {});
      }
    } else batchId = (await checkStoredBatch(deps.db, batch, { ...options, online: null })).batchId;
    return reply.redirect(`/payments/${batchId}`, 303);
  };
}
