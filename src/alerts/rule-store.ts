/**
 * Storing a checked rule, for `alerts rule add|edit` and the console's rules page alike: the
 * rule's target must be outside unless the operator allows private targets, its lists and headings are checked against what is known (a list the registry has but no
 * sync has read yet is asked for once before it is refused), then the rule is stored with its
 * event. Problems come back as values; each caller says them in its own way.
 */
import { isRegistryHeading } from "../changes/headings.ts";
import type { Config } from "../config.ts";
import type { Sql } from "../db/connect.ts";
import type { Logger } from "../logger.ts";
import { readRegistryLists } from "../run/registry-lists.ts";
import { type Said, said } from "../said.ts";
import { privateTargetProblem } from "./private-targets.ts";
import { scopeProblems, unknownLists } from "./rule-input.ts";
import {
  type AlertRuleInput,
  type AlertRuleRow,
  insertAlertRule,
  type RuleActor,
  updateAlertRule,
} from "./sql/rules.ts";
import { knownLists, someSeenHeadings, unseenHeadings } from "./sql/scope.ts";

export type RuleStored =
  | {
      ok: true;
      row: AlertRuleRow;
      /** The rule's headings the registry is known to send that no stored change has named yet. */
      unseen: string[];
      /** Keys neither known nor seen (accepted with newHeading): the rule fires only if the registry ever sends them. */
      newKeys: string[];
      /** Settings the rule's channel needs and lacks, said as a note. */
      missingConfig: Said | undefined;
    }
  | { ok: false; problems: Said[] };

/**
 * Checks the lists and headings `given` (on an edit only those given: a list the rule had may
 * have been dropped since, which is not this edit's doing) and stores `input`.
 */
export async function storeCheckedRule(
  deps: { config: Config; log: Logger; sql: Sql },
  current: AlertRuleRow | undefined,
  input: AlertRuleInput,
  given: { lists: string[]; headings: string[] },
  newHeading: boolean,
  actor: RuleActor,
): Promise<RuleStored> {
  const { sql } = deps;
  // Loopback and private targets need the operator's explicit yes (issue 48, point 6).
  const inside = privateTargetProblem(input.channel, input.target, deps.config.alertAllowPrivateTargets);
  if (inside) return { ok: false, problems: [inside] };
  const [stored, unseen, seen] = await Promise.all([
    knownLists(sql),
    unseenHeadings(sql, given.headings),
    someSeenHeadings(sql, 20),
  ]);
  let known = stored;
  let listsHint: Said | undefined;
  if (unknownLists(given.lists, known).length > 0) {
    const read = await readRegistryLists(deps.config, deps.log, sql);
    if (read.ok) known = await knownLists(sql);
    else
      listsHint = said(
        "rule.listsUnread",
        { why: read.why },
        `the registry's lists could not be read (${read.why}); run \`regwatch sync\` once the registry is reachable, so its lists are known, then add the rule again`,
      );
  }
  const refused = scopeProblems(given, { ...known, unseen, seen }, newHeading, listsHint);
  if (refused.length > 0) return { ok: false, problems: refused };
  const row = current
    ? (await updateAlertRule(sql, input.name, input, actor))?.after
    : await insertAlertRule(sql, input, actor);
  if (!row)
    return {
      ok: false,
      problems: [
        current
          ? said("rule.noSuchRule", { name: input.name }, `no alert rule named "${input.name}"`)
          : said("rule.exists", { name: input.name }, `an alert rule named "${input.name}" exists already`),
      ],
    };
  return {
    ok: true,
    row,
    unseen: unseen.filter(isRegistryHeading),
    newKeys: unseen.filter((h) => !isRegistryHeading(h)),
    missingConfig: missingConfig(deps.config, row.channel),
  };
}

/** Settings the channel needs and lacks, in words; undefined when none. */
export function missingConfig(config: Config, channel: string): Said | undefined {
  if (channel === "webhook" && !config.webhookSecret)
    return said(
      "rule.noWebhookSecret",
      {},
      "REGWATCH_WEBHOOK_SECRET is not set; webhook messages wait until it is",
    );
  if (channel === "email" && !(config.smtpUrl && config.mailFrom))
    return said("rule.noSmtp", {}, "REGWATCH_SMTP_URL and REGWATCH_MAIL_FROM are needed to send e-mail");
  return undefined;
}
