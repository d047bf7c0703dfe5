/**
 * `/rules` and `/rules/:name`: the alert rules with their state and history, read by reviewers
 * and admins; admins add, edit, pause, resume and remove them with the checks and the history of
 * `regwatch alerts rule` (src/alerts/rule-store.ts), the signed-in user as the actor. Every
 * action ends on the page showing the new state with a sentence saying what was done.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { CHANNELS } from "../../alerts/rule-input.ts";
import { missingConfig, storeCheckedRule } from "../../alerts/rule-store.ts";
import { deliveryTrouble } from "../../alerts/sql/delivery-health.ts";
import { ruleEvents } from "../../alerts/sql/history.ts";
import { type AlertRuleRow, findAlertRule, listAlertRules, switchAlertRule } from "../../alerts/sql/rules.ts";
import { knownLists, someSeenHeadings, unseenHeadings } from "../../alerts/sql/scope.ts";
import { isRegistryHeading, REGISTRY_HEADINGS } from "../../changes/headings.ts";
import type { Sql } from "../../db/connect.ts";
import type { Translator } from "../../i18n/messages.ts";
import { saidIn } from "../../i18n/said-words.ts";
import { wordOf } from "../../i18n/words.ts";
import type { Said } from "../../said.ts";
import { fill } from "../fill-message.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { roleAtLeast } from "../kit.ts";
import { form, line, query, repeated, typedText } from "../route-schemas.ts";
import { type RuleForm, type RuleFormBody, readRuleForm } from "./rules-form.ts";
import { type RulesMessages, rulesMessages } from "./rules-messages.ts";

const NAME_PARAM = { type: "object", properties: { name: line(200) }, required: ["name"] } as const;
const SHOWN = { querystring: query({ done: line(20), rule: line(200), count: line(8) }) };
const RULE_FIELDS = {
  channel: line(20),
  target: line(2000),
  lists: repeated(200, 200),
  headings: repeated(200, 200),
  other_headings: line(2000),
  new_heading: line(4),
  digest: line(4),
  note: typedText(2000),
};
const ADD = { querystring: query(), body: form({ name: line(200), ...RULE_FIELDS }) };
const EDIT = { params: NAME_PARAM, querystring: query(), body: form(RULE_FIELDS) };
const STATE = {
  params: NAME_PARAM,
  querystring: query(),
  body: form({ to: line(20), confirm: line(4), note: typedText(2000) }),
};
const RULE_PAGE = { params: NAME_PARAM, querystring: SHOWN.querystring };

type Done = "added" | "edited" | "paused" | "resumed" | "removed" | "already-paused" | "already-active";

export const registerRulesPages: RegisterAccountPages = (app, kit) => {
  const reviewer = kit.requireRole("reviewer");
  const words = (request: FastifyRequest) => rulesMessages(kit.i18n(request));
  const admin = kit.requireRole("admin");

  /** What the add and edit forms offer: the known lists, the headings the registry sends and those seen so far. */
  const choices = async (sql: Sql) => {
    const [lists, seen] = await Promise.all([knownLists(sql), someSeenHeadings(sql, 200)]);
    return {
      lists: [...new Set([...lists.remote.map((l) => l.listName), ...lists.desired])].sort(),
      headings: [...new Set([...REGISTRY_HEADINGS, ...seen.headings])],
      channels: CHANNELS,
    };
  };

  const showList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { form?: RuleForm; problems?: readonly Said[] } = {},
    status = 200,
  ) => {
    const sql = request.deps.db.sql;
    const M = words(request);
    const [rules, offered, trouble] = await Promise.all([
      listAlertRules(sql),
      choices(sql),
      deliveryTrouble(sql),
    ]);
    return kit.render(
      request,
      reply,
      "rules",
      {
        title: M.title,
        m: M,
        fill,
        rules,
        trouble,
        choices: offered,
        isAdmin: roleAtLeast(request.user.role, "admin"),
        done: await confirmation(request, M, kit.i18n(request)),
        values: extra.form?.values ?? {
          name: "",
          channel: "webhook",
          target: "",
          lists: [],
          headings: [],
          digest: false,
        },
        problems: (extra.problems ?? []).map((p) => saidIn(kit.i18n(request), p)),
      },
      status,
    );
  };

  const showRule = async (
    request: FastifyRequest,
    reply: FastifyReply,
    rule: AlertRuleRow,
    extra: { form?: RuleForm; problems?: readonly Said[] } = {},
    status = 200,
  ) => {
    const sql = request.deps.db.sql;
    const M = words(request);
    const [events, offered] = await Promise.all([ruleEvents(sql, rule.name), choices(sql)]);
    return kit.render(
      request,
      reply,
      "rule",
      {
        title: fill(M.ruleTitle, { name: rule.name }),
        m: M,
        fill,
        rule,
        events: events.filter((e) => e.ruleId === rule.id),
        choices: offered,
        isAdmin: roleAtLeast(request.user.role, "admin"),
        done: await confirmation(request, M, kit.i18n(request)),
        values: extra.form?.values ?? rule,
        problems: (extra.problems ?? []).map((p) => saidIn(kit.i18n(request), p)),
      },
      status,
    );
  };

  app.get("/rules", { schema: SHOWN, preHandler: reviewer }, (request, reply) => showList(request, reply));

  app.get<{ Params: { name: string } }>(
    "/rules/:name",
    { schema: RULE_PAGE, preHandler: reviewer },
    async (request, reply) => {
      const rule = await findAlertRule(request.deps.db.sql, request.params.name);
      if (!rule) return notFound(request, reply, request.params.name);
      return showRule(request, reply, rule);
    },
  );

  app.post<{ Body: RuleFormBody }>("/rules", { schema: ADD, preHandler: admin }, async (request, reply) => {
    const checked = readRuleForm(request.body ?? {});
    if (!checked.input) return showList(request, reply, { form: checked, problems: checked.problems }, 400);
    const stored = await storeCheckedRule(
      { config: request.deps.config, log: request.deps.log, sql: request.deps.db.sql },
      undefined,
      checked.input,
      checked.given,
      checked.newHeading,
      { by: request.user.name, note: checked.note },
    );
    if (!stored.ok) return showList(request, reply, { form: checked, problems: stored.problems }, 400);
    return reply.redirect(doneAddress("/rules", "added", stored.row.name, 0), 303);
  });

  app.post<{ Params: { name: string }; Body: RuleFormBody }>(
    "/rules/:name",
    { schema: EDIT, preHandler: admin },
    async (request, reply) => {
      const sql = request.deps.db.sql;
      const current = await findAlertRule(sql, request.params.name);
      if (!current) return notFound(request, reply, request.params.name);
      const checked = readRuleForm(request.body ?? {}, current);
      if (!checked.input)
        return showRule(request, reply, current, { form: checked, problems: checked.problems }, 400);
      const stored = await storeCheckedRule(
        { config: request.deps.config, log: request.deps.log, sql },
        current,
        checked.input,
        checked.given,
        checked.newHeading,
        { by: request.user.name, note: checked.note },
      );
      if (!stored.ok)
        return showRule(request, reply, current, { form: checked, problems: stored.problems }, 400);
      return reply.redirect(doneAddress(ruleAddress(current.name), "edited", current.name, 0), 303);
    },
  );

  app.post<{ Params: { name: string }; Body: { to?: string; confirm?: string; note?: string } }>(
    "/rules/:name/state",
    { schema: STATE, preHandler: admin },
    async (request, reply) => {
      const body = request.body ?? {};
      const M = words(request);
      const to = body.to === "paused" || body.to === "resumed" || body.to === "removed" ? body.to : null;
      if (!to) return refuse(request, reply, M.unknownState);
      if (to === "removed" && body.confirm !== "on") return refuse(request, reply, M.confirmRemove);
      const name = request.params.name;
      const result = await switchAlertRule(request.deps.db.sql, name, to, {
        by: request.user.name,
        note: body.note?.trim() || null,
      });
      if (!result) return notFound(request, reply, name);
      const done: Done = result.changed ? to : to === "paused" ? "already-paused" : "already-active";
      const back = to === "removed" ? "/rules" : ruleAddress(name);
      return reply.redirect(doneAddress(back, done, name, result.endedMessages), 303);
    },
  );

  function notFound(request: FastifyRequest, reply: FastifyReply, name: string) {
    const M = words(request);
    return kit.render(
      request,
      reply,
      "error",
      { title: M.title, message: fill(M.noSuchRule, { name }) },
      404,
    );
  }
  function refuse(request: FastifyRequest, reply: FastifyReply, message: string) {
    return kit.render(request, reply, "error", { title: words(request).title, message }, 400);
  }
};

function ruleAddress(name: string): string {
  return `/rules/${encodeURIComponent(name)}`;
}

/**
 * What an added or edited rule still waits for: headings the registry sends that no change has
 * named yet, keys it is not known to send, settings its channel lacks.
 */
async function notesOf(
  request: FastifyRequest,
  q: Record<string, string | undefined>,
  M: RulesMessages,
  i18n: Translator,
): Promise<string[]> {
  if ((q.done !== "added" && q.done !== "edited") || !q.rule) return [];
  const rule = await findAlertRule(request.deps.db.sql, q.rule);
  if (!rule) return [];
  const unseen = await unseenHeadings(request.deps.db.sql, rule.headings);
  const missing = missingConfig(request.deps.config, rule.channel);
  const known = unseen.filter(isRegistryHeading);
  const newKeys = unseen.filter((h) => !isRegistryHeading(h));
  const words = (keys: string[]) => keys.map((h) => `${wordOf(i18n, "heading", h)} (${h})`).join(", ");
  return [
    ...(known.length > 0 ? [fill(M.noteUnseen, { headings: words(known) })] : []),
    ...(newKeys.length > 0 ? [fill(M.noteNewKey, { headings: newKeys.join(", ") })] : []),
    ...(missing ? [fill(M.noteConfig, { what: saidIn(i18n, missing) })] : []),
  ];
}

function doneAddress(base: string, done: Done, rule: string, count: number): string {
  const search = new URLSearchParams({ done, rule });
  if (count > 0) search.set("count", String(count));
  return `${base}?${search}`;
}

/** The sentences confirming what the last action did, with what the rule still waits for. */
async function confirmation(request: FastifyRequest, M: RulesMessages, i18n: Translator): Promise<string[]> {
  const q = request.query as Record<string, string | undefined>;
  return [...doneMessage(q, M, i18n), ...(await notesOf(request, q, M, i18n))];
}

function doneMessage(q: Record<string, string | undefined>, M: RulesMessages, i18n: Translator): string[] {
  const name = q.rule ?? "";
  const sentence: Record<Done, string> = {
    added: M.doneAdded,
    edited: M.doneEdited,
    paused: M.donePaused,
    resumed: M.doneResumed,
    removed: M.doneRemoved,
    "already-paused": M.alreadyPaused,
    "already-active": M.alreadyActive,
  };
  // A count of messages not sent is said with its plural (ICU, through the catalog).
  const unsent = Number(q.count ?? "0");
  if (q.done === "removed" && Number.isInteger(unsent) && unsent > 0)
    return [i18n.t("rulesMsg.doneRemovedMessages", { name, count: unsent })];
  const template = q.done ? sentence[q.done as Done] : undefined;
  if (!template) return [];
  return [fill(template, { name, count: q.count ?? "0" })];
}
