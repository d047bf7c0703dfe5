/** Validation of `alerts rule add` arguments: every problem named, before anything is stored. */

import { isHeadingKey, isRegistryHeading, REGISTRY_HEADINGS } from "../changes/headings.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { headingKeyOf } from "../i18n/heading-labels.ts";
import { type Said, said } from "../said.ts";
import type { AlertChannel, AlertRuleInput } from "./sql/rules.ts";

export const CHANNELS: readonly AlertChannel[] = ["webhook", "email", "notify"];

/** As long as a list name may be: a rule's page address (/rules/NAME) stays well within what the console routes. */
export const RULE_NAME_MAX = 200;

export function validateRule(input: {
  name: string;
  channel: string;
  target: string;
  lists: string[];
  headings: string[];
  digest: boolean;
}): { rule?: AlertRuleInput; problems: Said[] } {
  const problems: Said[] = [];
  const name = input.name.trim();
  if (name === "") problems.push(said("rule.emptyName", {}, "NAME must not be empty"));
  if (name.length > RULE_NAME_MAX)
    problems.push(
      said("rule.longName", { max: RULE_NAME_MAX }, `NAME is longer than ${RULE_NAME_MAX} characters`),
    );
  const target = input.target.trim();
  if (!CHANNELS.includes(input.channel as AlertChannel)) {
    problems.push(
      said(
        "rule.badChannel",
        { channel: input.channel, allowed: [...CHANNELS] },
        `--channel "${input.channel}" is not one of ${CHANNELS.join(", ")}`,
      ),
    );
  } else {
    const problem = targetProblem(input.channel as AlertChannel, target);
    if (problem) problems.push(problem);
  }
  const blank = [...input.lists, ...input.headings].some((v) => v.trim() === "");
  if (blank) problems.push(said("rule.blankScope", {}, "--list and --heading values must not be empty"));
  if (problems.length > 0) return { problems };
  return {
    problems,
    rule: {
      name,
      channel: input.channel as AlertChannel,
      target,
      lists: [...new Set(input.lists.map((l) => l.trim()))],
      // A heading's name in either language is stored as its key; anything else is checked as typed.
      headings: [...new Set(input.headings.map((h) => headingKeyOf(h) ?? h.trim()))],
      digest: input.digest,
    },
  };
}

function targetProblem(channel: AlertChannel, target: string): Said | undefined {
  if (channel === "webhook") {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return said(
        "rule.targetNotUrl",
        { target },
        `--target "${target}" is not a URL (a webhook needs http:// or https://)`,
      );
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return said(
        "rule.targetNotHttp",
        { target },
        `--target "${target}" must be an http:// or https:// URL`,
      );
    return undefined;
  }
  if (channel === "email") {
    const addresses = target.split(",").map((a) => a.trim());
    const bad = addresses.filter((a) => !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(a));
    return bad.length > 0
      ? said(
          "rule.targetNotEmail",
          { addresses: bad },
          `--target: not an e-mail address: ${bad.map((b) => `"${b}"`).join(", ")}`,
        )
      : undefined;
  }
  if (target === "" || Buffer.byteLength(target) > 63)
    return said(
      "rule.targetNotChannel",
      { target },
      `--target "${target}" must be a NOTIFY channel name of 1 to 63 bytes`,
    );
  return undefined;
}

/** What `alerts rule add` knows when it checks a rule's lists and headings. */
export interface RuleScopeFacts {
  remote: readonly { listKey: string; listName: string }[];
  desired: readonly string[];
  /** The rule's headings no stored change, value or profile has named. */
  unseen: readonly string[];
  /** Some headings that have been seen, to name in the message. */
  seen: { headings: readonly string[]; more: number };
}

/** How many known names a message lists before it says how many more there are. */
const NAMED = 20;

/**
 * A rule naming a list nobody knows or a heading never seen would be stored and never fire, so
 * both are refused, naming each and what is known (known lists and headings are the data's, so
 * the message is escaped for a terminal). A heading the registry is known to send passes unseen;
 * `--new-heading` lets through a key the registry may add later (nothing shows the complete set),
 * but never a text that is not a key: a rule stores keys only.
 */
/** The list references no remote list (by key or name) or desired list answers to. */
export function unknownLists(
  lists: readonly string[],
  facts: Pick<RuleScopeFacts, "remote" | "desired">,
): string[] {
  return lists.filter(
    (ref) =>
      !facts.remote.some((l) => l.listKey === ref || l.listName === ref) && !facts.desired.includes(ref),
  );
}

export function scopeProblems(
  rule: Pick<AlertRuleInput, "lists" | "headings">,
  facts: RuleScopeFacts,
  newHeading: boolean,
  /** Said after an unknown list: why the registry's lists could not be read, and how to make them known. */
  listsHint?: Said,
): Said[] {
  const problems: Said[] = [];
  const unknown = unknownLists(rule.lists, facts);
  if (unknown.length > 0) {
    const known = [
      ...facts.remote.map((l) => `${l.listName} (${l.listKey})`),
      ...facts.desired.filter((d) => !facts.remote.some((l) => l.listName === d)),
    ];
    problems.push(
      said(
        listsHint ? "rule.unknownListHint" : "rule.unknownList",
        {
          lists: unknown,
          known: known.slice(0, NAMED),
          more: Math.max(0, known.length - NAMED),
          ...(listsHint ? { why: String(listsHint.values.why ?? "") } : {}),
        },
        terminalSafe(
          `--list ${unknown.map((u) => JSON.stringify(u)).join(", ")}: no such list, remote (by key or name) or desired (known: ${named(known, 0)})${listsHint ? `; ${listsHint.text}` : ""}`,
        ),
      ),
    );
  }
  // A heading the registry is known to send is welcome before any change has named it.
  const unseen = facts.unseen.filter((h) => !isRegistryHeading(h));
  const notKeys = unseen.filter((h) => !isHeadingKey(h));
  if (notKeys.length > 0) {
    problems.push(
      said(
        "rule.notHeading",
        { names: notKeys, knownHeadings: [...REGISTRY_HEADINGS] },
        terminalSafe(
          `--heading ${notKeys.map((h) => JSON.stringify(h)).join(", ")}: neither a heading's name nor a heading key (the registry sends ${REGISTRY_HEADINGS.join(", ")}; a heading it may add later is given as its key: small letters, digits and _)`,
        ),
      ),
    );
  }
  const newKeys = unseen.filter(isHeadingKey);
  if (newKeys.length > 0 && !newHeading) {
    const seen = facts.seen.headings.slice(0, NAMED);
    problems.push(
      said(
        "rule.unseenHeading",
        {
          headings: newKeys,
          seen,
          more: facts.seen.more + facts.seen.headings.length - seen.length,
          knownHeadings: [...REGISTRY_HEADINGS],
        },
        terminalSafe(
          `--heading ${newKeys.map((h) => JSON.stringify(h)).join(", ")}: no stored change has named this heading (seen: ${named(facts.seen.headings, facts.seen.more)}); check the spelling, or add --new-heading to wait for a heading the registry has not reported yet`,
        ),
      ),
    );
  }
  // List names and headings come from the registry and other systems: the English is escaped for a terminal.
  return problems;
}

function named(names: readonly string[], more: number): string {
  if (names.length === 0) return "none yet";
  const shown = names.slice(0, NAMED);
  const rest = more + names.length - shown.length;
  return `${shown.join(", ")}${rest > 0 ? ` and ${rest} more` : ""}`;
}
