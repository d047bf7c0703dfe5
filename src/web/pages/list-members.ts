/**
 * `/lists/:name`: a desired list's businesses with their reconcile state; admins add a business
 * (by tax number, or by registration number through the search interface when it is configured)
 * and remove one. Only the desired state changes here: reconcile carries it to the registry.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { checkRegistrationNumber } from "../../api/search-query.ts";
import { listNameProblemSaid, readDesiredTaxId } from "../../desired-names.ts";
import { saidIn } from "../../i18n/said-words.ts";
import {
  addDesiredItems,
  desiredListExists,
  ensureDesiredList,
  listDesiredItems,
  removeDesiredItem,
} from "../../reconcile/sql/desired-edit.ts";
import { loadWatchLists } from "../../run/lists.ts";
import { resolveRegistrationNumber } from "../../search/resolve-reg-number.ts";
import { taxIdProblemSaid } from "../../taxid.ts";
import { fill } from "../fill-message.ts";
import { itemOutcomeWords } from "../item-outcome-words.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { roleAtLeast } from "../kit.ts";
import { form, line, query, typedText } from "../route-schemas.ts";
import { type ListMembersMessages, listMembersMessages } from "./list-members-messages.ts";
import { showListsPage } from "./lists.ts";

const NAME_PARAM = { type: "object", properties: { name: line(200) }, required: ["name"] } as const;
const MEMBERS = {
  params: NAME_PARAM,
  querystring: query({ done: line(20), tax_id: line(20) }),
};
const ADD = {
  querystring: query(),
  body: form(
    { list: line(200), from: line(20), tax_id: line(40), reg_number: line(40), note: typedText(2000) },
    ["list"],
  ),
};
const REMOVE = {
  querystring: query(),
  body: form({ list: line(200), tax_id: line(40) }, ["list", "tax_id"]),
};

type Done = "added" | "added-new-list" | "already" | "removed" | "not-there";

interface AddBody {
  list: string;
  /** `lists` when the form was the lists page's. */
  from?: string;
  tax_id?: string;
  reg_number?: string;
  note?: string;
}

export const registerListMembersPages: RegisterAccountPages = (app, kit) => {
  const admin = kit.requireRole("admin");
  const words = (request: FastifyRequest) => listMembersMessages(kit.i18n(request));

  app.get<{ Params: { name: string }; Querystring: { done?: string; tax_id?: string } }>(
    "/lists/:name",
    { schema: MEMBERS },
    async (request, reply) => {
      const { name } = request.params;
      const shown = await showMembers(request, reply, name, {
        done: doneMessage(words(request), request.query, name),
      });
      if (shown) return shown;
      return kit.render(
        request,
        reply,
        "error",
        { title: name, message: fill(words(request).noList, { name }) },
        404,
      );
    },
  );

  /** The list's page (undefined when no such desired list exists), with a done message or the add form's refusal. */
  async function showMembers(
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    extra: { done?: string | null; formError?: string; typed?: AddBody },
    status = 200,
  ) {
    const M = words(request);
    const rows = await listDesiredItems(request.deps.db.sql, name);
    if (rows.length === 0) return undefined;
    const page = {
      title: fill(M.membersTitle, { name }),
      m: M,
      listName: name,
      prune: rows[0]!.prune,
      members: rows
        .filter((r) => r.taxId !== null)
        .map((r) => ({ ...r, outcome: itemOutcomeWords(kit.i18n(request), r.lastCode, r.lastMessage) })),
      isAdmin: roleAtLeast(request.user.role, "admin"),
      done: null,
      ...extra,
    };
    return kit.render(request, reply, "list-members", page, status);
  }

  /**
   * The add form refused: the page it was sent from again, with what was typed and why (the
   * lists page for its form or a list not desired yet, else the list's own page).
   */
  async function refuseAdd(request: FastifyRequest<{ Body: AddBody }>, reply: FastifyReply, message: string) {
    const typed = request.body;
    const extra = { formError: message, typed };
    if (typed.from !== "lists") {
      const shown = await showMembers(request, reply, typed.list.trim(), extra, 400);
      if (shown) return shown;
    }
    return showListsPage(request, reply, kit, extra, 400);
  }

  app.post<{ Body: AddBody }>(
    "/lists/members",
    { schema: ADD, preHandler: admin },
    async (request, reply) => {
      const deps = request.deps;
      const M = words(request);
      const body = request.body;
      const listName = await listNameOf(deps.db.sql, body.list.trim());
      const i18n = kit.i18n(request);
      const listProblem = listNameProblemSaid(listName);
      if (listProblem)
        return refuseAdd(
          request,
          reply,
          fill(M.badListName, { name: listName, problem: saidIn(i18n, listProblem) }),
        );
      const taxText = body.tax_id?.trim() ?? "";
      const regText = body.reg_number?.trim() ?? "";
      if ((taxText === "") === (regText === "")) return refuseAdd(request, reply, M.giveOne);
      let taxId: string;
      if (taxText !== "") {
        const reading = readDesiredTaxId(taxText);
        if (!reading.ok)
          return refuseAdd(
            request,
            reply,
            fill(M.badTaxId, { value: taxText, problem: saidIn(i18n, reading.said) }),
          );
        const checkDigit = taxIdProblemSaid(reading.taxId);
        if (checkDigit) return refuseAdd(request, reply, saidIn(i18n, checkDigit));
        taxId = reading.taxId;
      } else {
        const checked = checkRegistrationNumber(regText);
        if (!checked.ok) return refuseAdd(request, reply, saidIn(i18n, checked.said));
        const { config } = deps;
        if (!config.searchUrl || !config.searchApiKey) return refuseAdd(request, reply, M.noSearch);
        const resolved = await resolveRegistrationNumber(
          { ...config, searchUrl: config.searchUrl, searchApiKey: config.searchApiKey },
          deps.log,
          deps.db.sql,
          checked.value,
        );
        if (!resolved.ok)
          return refuseAdd(request, reply, resolved.said ? saidIn(i18n, resolved.said) : resolved.problem);
        taxId = resolved.taxId;
      }
      const note = body.note?.trim() || null;
      const { created, added } = await deps.db.sql.begin(async (tx) => ({
        created: (await ensureDesiredList(tx, listName)).created,
        added: await addDesiredItems(tx, listName, [{ taxId, note }], "cli"),
      }));
      deps.log.info({ user: request.user.name, list: listName, taxId }, "console desired item added");
      const done: Done = added.length === 0 ? "already" : created ? "added-new-list" : "added";
      return reply.redirect(membersAddress(listName, done, taxId), 303);
    },
  );

  app.post<{ Body: { list: string; tax_id: string } }>(
    "/lists/members/remove",
    { schema: REMOVE, preHandler: admin },
    async (request, reply) => {
      const sql = request.deps.db.sql;
      const M = words(request);
      const listName = request.body.list.trim();
      const reading = readDesiredTaxId(request.body.tax_id.trim());
      if (!reading.ok)
        return refuse(
          request,
          reply,
          fill(M.badTaxId, { value: request.body.tax_id, problem: saidIn(kit.i18n(request), reading.said) }),
        );
      if (!(await desiredListExists(sql, listName)))
        return refuse(request, reply, fill(M.noList, { name: listName }), 404);
      const removed = await removeDesiredItem(sql, listName, reading.taxId);
      request.deps.log.info(
        { user: request.user.name, list: listName, taxId: reading.taxId },
        "console desired item removed",
      );
      return reply.redirect(membersAddress(listName, removed ? "removed" : "not-there", reading.taxId), 303);
    },
  );

  function refuse(request: FastifyRequest, reply: FastifyReply, message: string, status = 400) {
    return kit.render(
      request,
      reply,
      "error",
      { title: kit.i18n(request).t("listsAdmin.refusedTitle"), message },
      status,
    );
  }
};

/** A list named by the key of its remote list is the list of that name (desired lists are kept by name). */
async function listNameOf(sql: Parameters<typeof loadWatchLists>[0], ref: string): Promise<string> {
  const byKey = (await loadWatchLists(sql)).find((l) => l.listKey === ref);
  return byKey ? byKey.listName : ref;
}

function membersAddress(listName: string, done: Done, taxId: string): string {
  return `/lists/${encodeURIComponent(listName)}?${new URLSearchParams({ done, tax_id: taxId })}`;
}

function doneMessage(
  M: ListMembersMessages,
  q: { done?: string; tax_id?: string },
  list: string,
): string | null {
  const values = { taxId: q.tax_id ?? "", list };
  const sentence: Record<Done, string> = {
    added: M.doneAdded,
    "added-new-list": M.doneAddedNewList,
    already: M.doneAlready,
    removed: M.doneRemoved,
    "not-there": M.doneNotThere,
  };
  const template = q.done ? sentence[q.done as Done] : undefined;
  return template ? fill(template, values) : null;
}
