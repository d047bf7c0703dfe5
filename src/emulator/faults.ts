/**
 * Fault injection. Whether a rule fires for a request is a pure function of the seed, the rule's
 * position, the request's identity (method, path, query, body) and how many times that identical
 * request was seen before. Concurrent clients therefore get the same faults in any interleaving,
 * and a retry of the same request gets a fresh draw that is still reproducible.
 */
import { hashText, mix, unit } from "./random.ts";

export const FAULT_KINDS = [
  "status",
  "rate-limit",
  "reset",
  "delay",
  "slow",
  "truncate",
  "malformed",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** Endpoint label such as `GET /v2/lists/:key/changes`; omitted = every registry endpoint. */
  endpoint?: string;
  kind: FaultKind;
  /** Chance in [0, 1] that the rule fires for one request. */
  probability: number;
  /** `status`: the HTTP status to answer (default 503). */
  status?: number;
  /** Retry-After value: `"5"` (seconds), `"date:5"` (HTTP-date 5 s ahead) or a literal HTTP-date. */
  retryAfter?: string;
  /** `delay`: pause before answering; `slow`: pause between body chunks. */
  delayMs?: number;
  /** Fire at most this many times in total, then never again. */
  times?: number;
}

/** Every problem of a rule set, each naming the rule and field; empty when the rules are usable. */
export function faultRuleProblems(rules: unknown): string[] {
  if (!Array.isArray(rules)) return ["faults must be an array of rules"];
  const problems: string[] = [];
  for (const [i, rule] of (rules as unknown[]).entries()) {
    const at = `faults[${i}]`;
    if (typeof rule !== "object" || rule === null) {
      problems.push(`${at} must be an object`);
      continue;
    }
    const r = rule as Record<string, unknown>;
    if (!FAULT_KINDS.includes(r.kind as FaultKind))
      problems.push(`${at}.kind must be one of ${FAULT_KINDS.join(", ")}`);
    if (typeof r.probability !== "number" || !(r.probability >= 0 && r.probability <= 1)) {
      problems.push(`${at}.probability must be a number from 0 to 1`);
    }
    if (r.endpoint !== undefined && typeof r.endpoint !== "string")
      problems.push(`${at}.endpoint must be a string`);
    if (
      r.status !== undefined &&
      !(Number.isInteger(r.status) && Number(r.status) >= 100 && Number(r.status) <= 599)
    ) {
      problems.push(`${at}.status must be an HTTP status`);
    }
    if (r.retryAfter !== undefined && typeof r.retryAfter !== "string")
      problems.push(`${at}.retryAfter must be a string`);
    for (const field of ["delayMs", "times"] as const) {
      const v = r[field];
      if (v !== undefined && !(Number.isInteger(v) && Number(v) >= 0))
        problems.push(`${at}.${field} must be a whole number`);
    }
  }
  return problems;
}

/** The rules in force, with the bookkeeping that makes draws reproducible. */
export class FaultPlan {
  private rules: FaultRule[] = [];
  private fired: number[] = [];
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly seed: number,
    rules: FaultRule[],
  ) {
    this.replace(rules);
  }

  replace(rules: FaultRule[]): void {
    const problems = faultRuleProblems(rules);
    if (problems.length > 0) throw new Error(problems.join("; "));
    this.rules = rules.map((rule) => ({ ...rule }));
    this.fired = rules.map(() => 0);
    this.seen.clear();
  }

  current(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** The first rule that fires for this request, if any. `identity` is method, path, query and body. */
  draw(endpoint: string, identity: string): FaultRule | null {
    const occurrence = this.seen.get(identity) ?? 0;
    this.seen.set(identity, occurrence + 1);
    const requestHash = hashText(identity);
    for (let i = 0; i < this.rules.length; i++) {
      const rule = this.rules[i]!;
      if (rule.endpoint !== undefined && rule.endpoint !== endpoint) continue;
      if (rule.times !== undefined && (this.fired[i] ?? 0) >= rule.times) continue;
      if (unit(mix(this.seed, i, requestHash, occurrence)) >= rule.probability) continue;
      this.fired[i] = (this.fired[i] ?? 0) + 1;
      return rule;
    }
    return null;
  }
}

/** The Retry-After header value a rule asks for; seconds by default. */
export function retryAfterHeader(rule: FaultRule, realNowMs: number): string {
  const value = rule.retryAfter ?? "1";
  const ahead = /^date:(\d+)$/.exec(value);
  if (ahead) return new Date(realNowMs + Number(ahead[1]) * 1000).toUTCString();
  return value;
}
