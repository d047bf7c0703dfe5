/**
 * The registry's own description of its changes operation, against the environment. A variable
 * set in the environment wins over the description in the runs (where a contradiction is a
 * warning at every run); here it is an error, because one of the two is wrong and the first
 * morning would show which only by a failed or empty window.
 */
import { type ChangesSettings, compareWithSettings, type DescriptionOutcome } from "../api/description.ts";
import type { Config, EnvName } from "../config.ts";
import { type CheckResult, fail, ok, warn } from "./report.ts";

export const DESCRIPTION = "description";

type ChangesConfig = Pick<
  Config,
  "changesFromParam" | "changesToParam" | "changesPageParam" | "changesEndInclusive" | "explicit"
>;

/** The changes settings the environment sets explicitly (defaults are not settings here). */
export function explicitChangesSettings(config: ChangesConfig): ChangesSettings {
  const set = (name: EnvName) => config.explicit.has(name);
  return {
    ...(set("REGWATCH_CHANGES_FROM_PARAM") ? { from: config.changesFromParam } : {}),
    ...(set("REGWATCH_CHANGES_TO_PARAM") ? { to: config.changesToParam } : {}),
    ...(set("REGWATCH_CHANGES_PAGE_PARAM") ? { page: config.changesPageParam } : {}),
    ...(set("REGWATCH_CHANGES_END_INCLUSIVE") ? { endInclusive: config.changesEndInclusive } : {}),
  };
}

/**
 * `outcome` undefined: the description could not be read (`why`: no watch interface, it did not
 * answer, or the reading broke off).
 */
export function judgeDescription(
  outcome: DescriptionOutcome | undefined,
  config: ChangesConfig,
  why = "the watch interface did not answer",
): CheckResult {
  const inForce = `${config.changesFromParam} / ${config.changesToParam}`;
  if (!outcome) {
    return warn(DESCRIPTION, `not read: ${why}; the runs would use ${inForce}`, "see the watch key line");
  }
  if (outcome.status !== "found") {
    const tried = outcome.tried.length > 0 ? ` (tried ${outcome.tried.join(", ")})` : "";
    const what = outcome.status === "absent" ? "none is served" : `it is unreadable: ${outcome.problem}`;
    return warn(
      DESCRIPTION,
      `the registry's description of its changes parameters was not found: ${what}${tried}; the runs use ${inForce}`,
      "if the first changes request fails with a validation error naming a parameter, ask the provider for the names and set REGWATCH_CHANGES_FROM_PARAM and REGWATCH_CHANGES_TO_PARAM",
    );
  }
  const p = outcome.params;
  const named = [
    `interval ${p.from} / ${p.to}`,
    p.page ? `page ${p.page}` : "no page parameter",
    ...(p.endInclusive === undefined ? [] : [`end ${p.endInclusive ? "inclusive" : "exclusive"}`]),
    ...(p.dateFormat ? [`dates ${p.dateFormat}`] : []),
  ].join(", ");
  const settings = explicitChangesSettings(config);
  const contradictions = compareWithSettings(p, settings);
  if (contradictions.length > 0) {
    return fail(
      DESCRIPTION,
      `${contradictions.join("; ")} (description at ${outcome.url}: ${named})`,
      "unset the variable to use the description's value, or correct it",
    );
  }
  const agreement =
    Object.keys(settings).length > 0 ? "the variables set agree with it" : "the runs use these names";
  return ok(DESCRIPTION, `read from ${outcome.url}: ${named}; ${agreement}`);
}
