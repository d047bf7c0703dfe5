/**
 * Storing a rule from `alerts rule add` and `alerts rule edit`: the same checks either way (every
 * problem named at once, exit 64), then the rule with its event.
 */
import { validateRule } from "../alerts/rule-input.ts";
import { storeCheckedRule } from "../alerts/rule-store.ts";
import type { AlertRuleInput, AlertRuleRow, RuleActor } from "../alerts/sql/rules.ts";
import type { Sql } from "../db/connect.ts";
import { EXIT, type ExitCode, UsageError } from "../errors.ts";
import { actorName } from "./actor.ts";
import type { Context } from "./context.ts";

export interface ScopeFlags {
  list: string[];
  heading: string[];
  newHeading?: boolean;
}

export interface ActorFlags {
  by?: string;
  note?: string;
}

export interface EditFlags extends ScopeFlags, ActorFlags {
  channel?: string;
  target?: string;
  allLists?: boolean;
  allHeadings?: boolean;
  digest?: boolean;
}

/** Who acts: --by, else the user running the command. */
export function actorOf(opts: ActorFlags): RuleActor {
  return { by: actorName(opts.by), note: opts.note?.trim() || null };
}

/**
 * The rule an add (no `current`) or an edit would store, checked as add checks it: every problem
 * named at once, exit 64. An edit keeps what it does not give.
 */
export function checkedRule(
  current: AlertRuleRow | undefined,
  opts: EditFlags,
  build: (scope: { lists: string[]; headings: string[] }) => {
    name: string;
    channel: string;
    target: string;
    digest: boolean;
    lists: string[];
    headings: string[];
  },
): AlertRuleInput {
  if (opts.allLists && opts.list.length > 0)
    throw new UsageError("--all-lists and --list exclude each other");
  if (opts.allHeadings && opts.heading.length > 0)
    throw new UsageError("--all-headings and --heading exclude each other");
  const changes =
    opts.channel !== undefined ||
    opts.target !== undefined ||
    opts.digest !== undefined ||
    opts.allLists ||
    opts.allHeadings ||
    opts.list.length > 0 ||
    opts.heading.length > 0;
  if (current && !changes)
    throw new UsageError(
      "nothing to change: give --channel, --target, --list, --all-lists, --heading, --all-headings, --digest or --no-digest",
    );
  const lists = opts.allLists ? [] : opts.list.length > 0 || !current ? opts.list : current.lists;
  const headings = opts.allHeadings
    ? []
    : opts.heading.length > 0 || !current
      ? opts.heading
      : current.headings;
  const { rule, problems } = validateRule(build({ lists, headings }));
  if (!rule) throw new UsageError(problems.map((p) => p.text).join("; "));
  return rule;
}

/**
 * Refuses lists and headings nobody knows (as add does), then stores the rule (src/alerts/rule-store.ts).
 * On edit only the lists and headings given are checked.
 */
export async function storeRule(
  ctx: Context,
  sql: Sql,
  current: AlertRuleRow | undefined,
  input: AlertRuleInput,
  opts: EditFlags,
  actor: RuleActor,
): Promise<ExitCode> {
  const given = current
    ? { lists: opts.list.map((l) => l.trim()), headings: opts.heading.map((h) => h.trim()) }
    : input;
  const stored = await storeCheckedRule(
    { config: ctx.config, log: ctx.log, sql },
    current,
    input,
    given,
    Boolean(opts.newHeading),
    actor,
  );
  if (!stored.ok) throw new UsageError(stored.problems.map((p) => p.text).join("; "));
  const { row, unseen, newKeys, missingConfig } = stored;
  process.stdout.write(`rule ${row.name} ${current ? "changed" : "added"}: ${describeRule(row)}\n`);
  if (unseen.length > 0)
    process.stderr.write(
      `regwatch: note: no stored change has named ${unseen.join(", ")} yet; the rule fires once the registry reports it\n`,
    );
  if (newKeys.length > 0)
    process.stderr.write(
      `regwatch: note: the registry is not known to send ${newKeys.join(", ")}; the rule fires only if it ever sends ${newKeys.length > 1 ? "these keys" : "this key"}\n`,
    );
  if (missingConfig) process.stderr.write(`regwatch: note: ${missingConfig.text}\n`);
  return EXIT.ok;
}

function describeRule(
  r: Pick<AlertRuleInput, "channel" | "target" | "lists" | "headings" | "digest">,
): string {
  return `${r.channel} to ${r.target}; lists ${r.lists.join(", ") || "all"}; headings ${r.headings.join(", ") || "all"}${r.digest ? "; digest per run" : ""}`;
}
