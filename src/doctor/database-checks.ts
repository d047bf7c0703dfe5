/**
 * The database half of the doctor: open the database by the one selection rule (never migrating
 * it), ask src/doctor/sql/health.ts its questions, and read what the other checks need from it (the
 * alert rules, how alert delivery fares, this month's search requests). Every failure becomes a
 * line of the report.
 */

import { deliveryHealth } from "../alerts/sql/delivery-health.ts";
import { outboxCounts } from "../alerts/sql/outbox.ts";
import { listAlertRules } from "../alerts/sql/rules.ts";
import type { Config } from "../config.ts";
import { openDatabase } from "../db/connect.ts";
import { registryZones } from "../db/registry-zone.ts";
import { coerceError } from "../errors.ts";
import { searchRequestsThisMonth } from "../run/usage.ts";
import {
  judgeMigrations,
  judgeReached,
  judgeReaders,
  judgeUnreached,
  judgeWrites,
  MIGRATIONS,
  READERS,
  WRITES,
} from "./judge-database.ts";
import { type CheckResult, fail, warn } from "./report.ts";
import { databaseIdentity, migrationState, regwatchSchemaExists, writeRights } from "./sql/health.ts";
import { readerRoles } from "./sql/reader-health.ts";

export interface AlertRuleFacts {
  channel: string;
  name: string;
  target: string;
}

export interface DatabaseFindings {
  results: CheckResult[];
  /** Enabled alert rules; undefined when they could not be read. */
  rules: AlertRuleFacts[] | undefined;
  /** Search requests counted this month; undefined when not read. */
  searchUsed: number | undefined;
  /** The outbox's counts and the delivery passes' health; undefined when not read. */
  delivery: DeliveryFacts | undefined;
}

export interface DeliveryFacts {
  counts: Awaited<ReturnType<typeof outboxCounts>>;
  health: Awaited<ReturnType<typeof deliveryHealth>>;
}

type DatabaseConfig = Pick<Config, "databaseUrl" | "dataDir" | "tz" | "registryTz">;

export async function checkDatabase(config: DatabaseConfig, now: Date): Promise<DatabaseFindings> {
  const origin = config.databaseUrl ? "DATABASE_URL" : "embedded";
  let db: Awaited<ReturnType<typeof openDatabase>>;
  try {
    db = await openDatabase(config, { max: 2 });
  } catch (error) {
    return unreached(coerceError(error).message, origin);
  }
  try {
    let identity: Awaited<ReturnType<typeof databaseIdentity>>;
    try {
      identity = await databaseIdentity(db.sql);
    } catch (error) {
      return unreached(describe(error), origin);
    }
    const results = [judgeReached(identity, origin, config.dataDir)];
    const [state, schemaThere, zones] = await Promise.all([
      attempt(MIGRATIONS, () => migrationState(db.sql, db.schema)),
      regwatchSchemaExists(db.sql).catch(() => true),
      registryZones(db.pool, [db.schema]).catch(() => undefined),
    ]);
    const calendar = { database: zones?.get(db.schema), configured: config.registryTz };
    results.push("check" in state ? state : judgeMigrations(state, calendar));
    if (!schemaThere) {
      const why = "not checked: the schema is not created yet";
      results.push(warn(WRITES, why, "run `regwatch migrate`"), warn(READERS, why, "run `regwatch migrate`"));
      return { results, rules: undefined, searchUsed: undefined, delivery: undefined };
    }
    const [rights, readers, rules, used, delivery] = await Promise.all([
      attempt(WRITES, () => writeRights(db.sql)),
      attempt(READERS, () => readerRoles(db.sql)),
      listAlertRules(db.sql).catch(() => undefined),
      searchRequestsThisMonth(db.sql, config.tz, now).catch(() => undefined),
      // Before migration 0046 there is no health row to read: the line says it was not read.
      Promise.all([outboxCounts(db.sql), deliveryHealth(db.sql)]).then(
        ([counts, health]) => ({ counts, health }),
        () => undefined,
      ),
    ]);
    results.push(
      "check" in rights ? rights : judgeWrites(rights, identity.user),
      "check" in readers ? readers : judgeReaders(readers),
    );
    return {
      results,
      rules: rules
        ?.filter((r) => r.enabled)
        .map((r) => ({ channel: r.channel, name: r.name, target: r.target })),
      searchUsed: used,
      delivery,
    };
  } finally {
    await db.close().catch(() => {});
  }
}

function unreached(message: string, origin: "DATABASE_URL" | "embedded"): DatabaseFindings {
  const skipped = "not checked: the database is not reachable";
  return {
    results: [
      judgeUnreached(message, origin),
      ...[MIGRATIONS, WRITES, READERS].map((check) => fail(check, skipped, "see the database line")),
    ],
    rules: undefined,
    searchUsed: undefined,
    delivery: undefined,
  };
}

/** The facts, or the failed line that says why they could not be read. */
async function attempt<T>(check: string, read: () => Promise<T>): Promise<T | CheckResult> {
  try {
    return await read();
  } catch (error) {
    return fail(check, `could not be read: ${describe(error)}`, "see the database line");
  }
}

function describe(error: unknown): string {
  const e = coerceError(error) as Error & { code?: unknown };
  return typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)
    ? `${e.message} (SQLSTATE ${e.code})`
    : e.message;
}
