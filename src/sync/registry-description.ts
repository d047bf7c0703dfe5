/**
 * At the start of a sync or backfill (the daemon's included): the changes parameters a run sends.
 * The registry's description is read at most once a day per watch address (the stored row of
 * registry_descriptions answers the rest of the day), and each setting is taken from, in order:
 * the environment when the variable is set there (config.explicit), the description, the default.
 * A contradiction between a set variable and the description is a warning at every run; a run
 * without a usable description says so once and goes on with the defaults.
 */
import { type ChangesParams, compareWithSettings, readDescription } from "../api/description.ts";
import type { RegistryClients } from "../api/registry.ts";
import type { Config, EnvName } from "../config.ts";
import { interfaceBase } from "../config-url.ts";
import { localDateTime } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import type { Logger } from "../logger.ts";
import { loadDescription, type StoredDescription, saveDescription } from "./sql/descriptions.ts";

export interface DescriptionDeps {
  sql: Sql;
  config: Config & { watchUrl: string };
  log: Logger;
  registry: Pick<RegistryClients, "watch" | "watchHttp" | "refusal">;
  signal?: AbortSignal;
  now?: () => Date;
}

/** What the run sends: the changes settings of `config`, as the description and the environment decide. */
export type ChangesSettings = Pick<
  Config,
  "changesFromParam" | "changesToParam" | "changesPageParam" | "changesEndInclusive"
>;

const FROM: EnvName = "REGWATCH_CHANGES_FROM_PARAM";
const TO: EnvName = "REGWATCH_CHANGES_TO_PARAM";
const PAGE: EnvName = "REGWATCH_CHANGES_PAGE_PARAM";
const INCLUSIVE: EnvName = "REGWATCH_CHANGES_END_INCLUSIVE";

/**
 * Reads (or recalls) the description, tells the watch client the parameters to send, and answers
 * the settings the run uses. Throws only when the stop aborts the reading, or the database fails.
 */
export async function applyRegistryDescription(deps: DescriptionDeps): Promise<ChangesSettings> {
  const { config, log } = deps;
  const described = await currentDescription(deps);
  const found = described.status === "found" ? described.params : undefined;
  const settings = chooseSettings(config, found);
  deps.registry.watch.useChangesParams({
    from: settings.changesFromParam,
    to: settings.changesToParam,
    page: settings.changesPageParam,
  });
  const sent = { from: settings.changesFromParam, to: settings.changesToParam };
  if (described.status === "found") {
    log.info(
      { description: described.url, readOn: described.readOn, ...sent },
      `the registry's description names the changes parameters ${described.params.from} and ${described.params.to}`,
    );
    for (const problem of compareWithSettings(described.params, explicitSettings(config)))
      log.warn({ description: described.url }, problem);
    const format = described.params.dateFormat;
    if (format !== undefined && !/^date\b/.test(format))
      log.warn(
        { description: described.url, dateFormat: format },
        `the registry's description gives the changes dates as ${format}; regwatch sends YYYY-MM-DD`,
      );
  } else {
    const line = `no usable description of the registry (${described.problem}); the changes parameters are ${sent.from} and ${sent.to} (environment or defaults)`;
    // A refused key is the run's one message, said when it ends: not also here, three times.
    if (described.status === "absent" || deps.registry.refusal.error)
      log.info({ tried: described.tried }, line);
    else log.warn({ tried: described.tried }, line);
  }
  return settings;
}

type Described =
  | { status: "found"; url: string; readOn: string; params: ChangesParams }
  | { status: "absent" | "unreadable"; tried: string[]; problem: string };

/** Today's stored reading, else a fresh one (stored unless the registry could not be reached). */
async function currentDescription(deps: DescriptionDeps): Promise<Described> {
  const { config, sql } = deps;
  // One row per registry: the address with or without its version segment is the same registry.
  const key = interfaceBase(config.watchUrl, "v2").versioned;
  const today = localDateTime(deps.now?.() ?? new Date(), config.tz).date;
  const stored = await loadDescription(sql, key);
  if (stored && stored.readOn >= today) return stored;
  const outcome = await readDescription(deps.registry.watchHttp, config.watchUrl, {
    signal: deps.signal,
    today,
  });
  if (outcome.status !== "found" && outcome.transient) {
    // A registry that could not be reached said nothing: what was read before still holds.
    if (stored?.status === "found") return keptFrom(stored, outcome.problem, deps.log);
    return outcome;
  }
  await saveDescription(sql, outcome, { watchUrl: key, readOn: today });
  return outcome;
}

function keptFrom(stored: StoredDescription & { status: "found" }, problem: string, log: Logger): Described {
  log.warn(
    { description: stored.url, readOn: stored.readOn },
    `could not read the registry's description today (${problem}); using what it said on ${stored.readOn}`,
  );
  return stored;
}

/** Each setting from the environment when set there, else the description, else the default. */
export function chooseSettings(config: Config, found: ChangesParams | undefined): ChangesSettings {
  const set = (name: EnvName) => config.explicit.has(name);
  return {
    changesFromParam: set(FROM) ? config.changesFromParam : (found?.from ?? config.changesFromParam),
    changesToParam: set(TO) ? config.changesToParam : (found?.to ?? config.changesToParam),
    changesPageParam: set(PAGE) ? config.changesPageParam : (found?.page ?? config.changesPageParam),
    changesEndInclusive: set(INCLUSIVE)
      ? config.changesEndInclusive
      : (found?.endInclusive ?? config.changesEndInclusive),
  };
}

/** The changes settings given in the environment, and only those (what compareWithSettings weighs). */
export function explicitSettings(config: Config): {
  from?: string;
  to?: string;
  page?: string;
  endInclusive?: boolean;
} {
  const set = (name: EnvName) => config.explicit.has(name);
  return {
    ...(set(FROM) ? { from: config.changesFromParam } : {}),
    ...(set(TO) ? { to: config.changesToParam } : {}),
    ...(set(PAGE) ? { page: config.changesPageParam } : {}),
    ...(set(INCLUSIVE) ? { endInclusive: config.changesEndInclusive } : {}),
  };
}
