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
