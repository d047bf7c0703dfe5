/**
 * What the rules page's add and edit forms post, read into the rule the CLI would store: the same
 * validation (src/alerts/rule-input.ts) and, on an edit, only the lists and headings the edit
 * adds are checked against what is known (as `alerts rule edit` checks only those it is given).
 * Pure.
 */
import { validateRule } from "../../alerts/rule-input.ts";
import type { AlertRuleInput, AlertRuleRow } from "../../alerts/sql/rules.ts";
import type { Said } from "../../said.ts";

export interface RuleFormBody {
  name?: string;
  channel?: string;
  target?: string;
  lists?: string | string[];
  headings?: string | string[];
  /** Headings typed in (comma-separated), for ones not offered. */
  other_headings?: string;
  new_heading?: string;
  digest?: string;
  note?: string;
}

export interface RuleForm {
  input?: AlertRuleInput;
  /** The lists and headings to check against what is known. */
  given: { lists: string[]; headings: string[] };
  newHeading: boolean;
  note: string | null;
  problems: Said[];
  /** What was typed, to show the form again. */
  values: {
    name: string;
    channel: string;
    target: string;
    lists: string[];
    headings: string[];
    digest: boolean;
  };
}

const many = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export function readRuleForm(body: RuleFormBody, current?: AlertRuleRow): RuleForm {
  const typed = (body.other_headings ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h !== "");
  const values = {
    name: current?.name ?? body.name ?? "",
    channel: body.channel ?? "",
    target: body.target ?? "",
    lists: many(body.lists),
    headings: [...new Set([...many(body.headings), ...typed])],
    digest: body.digest === "on",
  };
  const { rule, problems } = validateRule(values);
  const given = rule
    ? current
      ? {
          lists: rule.lists.filter((l) => !current.lists.includes(l)),
          headings: rule.headings.filter((h) => !current.headings.includes(h)),
        }
      : { lists: rule.lists, headings: rule.headings }
    : { lists: [], headings: [] };
  const note = body.note?.trim() || null;
  return {
    ...(rule ? { input: rule } : {}),
    given,
    newHeading: body.new_heading === "on",
    note,
    problems,
    values,
  };
}
