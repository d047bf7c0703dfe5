/**
 * node-cron, loaded the first time a schedule is read, validated or run. Most commands never
 * need it: REGWATCH_SCHEDULE left at its default is not validated, and only the daemon and
 * `status` read the schedule. It is required (CommonJS) so that validating stays synchronous,
 * and every user goes through here, so the process holds one copy of it.
 */
import { createRequire } from "node:module";

type NodeCron = typeof import("node-cron")["default"];

let loaded: NodeCron | undefined;

export function nodeCron(): NodeCron {
  loaded ??= (createRequire(import.meta.url)("node-cron") as { default: NodeCron }).default;
  return loaded;
}

/** What node-cron's scheduled task asks of an expression in a zone: `match` and its next firing. */
export interface CronMatcher {
  match(instant: Date): boolean;
  getNextMatch(after: Date): Date;
}

/**
 * node-cron's own matcher of `expression` in `timeZone`, the one its tasks run by, without a task:
 * creating a task draws a random id (node:crypto, about 5 ms of `regwatch status`'s start) and
 * sets up its runner. The package does not export the class: it is read from the file beside its
 * entry that defines it. Throws as `createTask` does for an expression node-cron refuses.
 */
export function cronMatcher(expression: string, timeZone: string): CronMatcher {
  nodeCron().parse(expression);
  const requireHere = createRequire(import.meta.url);
  const shared = requireHere(sharedFile(requireHere.resolve("node-cron"))) as {
    TimeMatcher?: new (expression: string, timeZone: string) => CronMatcher;
  };
  if (!shared.TimeMatcher) throw new Error("node-cron has no TimeMatcher beside its entry: see src/cron.ts");
  return new shared.TimeMatcher(expression, timeZone);
}

function sharedFile(entry: string): string {
  return entry.replace(/[^\\/]+$/, "_shared.cjs");
}
