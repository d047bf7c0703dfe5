/**
 * `regwatch demo`: the whole product on one machine in under a minute. The bundled emulator runs
 * in this process on the real clock, with two lists that already existed some weeks ago (so their
 * history can be backfilled: the registry reports an item's changes only from the data load after
 * it was added). A sample desired state extends them and asks for a third list; then reconcile,
 * backfill, sync and status run as they would in production. Items added today show up in the
 * outcomes, not in the changes: the registry activates them at tomorrow's 06:00 load.
 *
 * The emulator runs its realistic world (shared change files, same-day chains, a consistent value
 * history, current search records), so what the demo shows passed through the same attribution
 * and ordering a real registry's files need.
 *
 * The demo never touches the user's own database: it keeps an embedded Postgres of its own under
 * REGWATCH_DATA_DIR/demo and ignores DATABASE_URL, unless --database-url names one on purpose.
 */
import path from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { feedLines } from "../changes/format.ts";
import { changeTotals, readFeed } from "../changes/sql/change-feed.ts";
import type { Config } from "../config.ts";
import { addDays, localDateTime } from "../dates.ts";
import type { Database } from "../db/connect.ts";
import { startEmulator } from "../emulator/index.ts";
import { EXIT, RegwatchError } from "../errors.ts";
import { runSyncJob } from "../jobs/sync-job.ts";
import { createLogger } from "../logger.ts";
import { reconcile } from "../reconcile/reconcile.ts";
import { addDesiredItems, desiredListsOutside, ensureDesiredList } from "../reconcile/sql/desired-edit.ts";
import { acquireRunLock } from "../run/lock.ts";
import { openRegistry } from "../run/open-registry.ts";
import { checkDigit } from "../taxid.ts";
import { parseNonNegativeInt } from "./arg-parsers.ts";
import { type Context, runAction, withDatabase } from "./context.ts";
import { demoEvidenceReport } from "./demo-evidence.ts";
import { formatStatus, readFullStatus } from "./status.ts";

const DEMO_PREFIX = "demo-";
const EMULATOR_SEED = 2024;

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description(
      "embedded Postgres + the bundled emulator + a sample desired state: reconcile, backfill, sync, status",
    )
    .option(
      "--keep",
      "leave the database up after the demo, until Ctrl-C, and print how to reach it with psql",
    )
    .option("--port <n>", "port of the demo's emulator (default: any free port)", parsePort)
    .option(
      "--pg-port <n>",
      "port of the demo's embedded Postgres when it starts (default: the one chosen at its first start)",
      parsePort,
    )
    .option(
      "--database-url <url>",
      "run the demo in this database instead (it must hold no desired lists other than demo-*)",
    )
    .addHelpText(
      "after",
      [
        "",
        "The demo keeps its own embedded Postgres under REGWATCH_DATA_DIR/demo and its own emulator;",
        "DATABASE_URL is ignored, so the demo's lists never reach your database. Running it again",
        "reuses its data.",
      ].join("\n"),
    )
    .action((opts: DemoOptions) => runAction((ctx) => demo(ctx, opts)));
}

interface DemoOptions {
  keep?: boolean;
  port?: number;
  pgPort?: number;
  databaseUrl?: string;
}

async function demo(ctx: Context, opts: DemoOptions) {
  const started = Date.now();
  const say = (...lines: string[]) => process.stdout.write(`${lines.join("\n")}\n`);
  // Quiet unless asked: the demo narrates on stdout; warnings still reach stderr.
  const log = createLogger({ level: process.env.REGWATCH_LOG_LEVEL ? ctx.config.logLevel : "warn", fd: 2 });
  const today = localDateTime(new Date(), "Europe/Budapest").date;

  const emulator = await startEmulator({
    seed: EMULATOR_SEED,
    businesses: 3000,
    realistic: true,
    port: opts.port ?? 0,
  });
  try {
    const sample = emulator.sampleBusinesses({ limit: 200 });
    const watchable = sample.filter((b) => b.type !== "budget_orgs").map((b) => String(b.tax_id));
    const budgetOrg = String(emulator.sampleBusinesses({ type: "budget_orgs", limit: 1 })[0]?.tax_id);
    const suppliers = watchable.slice(0, 25);
    const customers = watchable.slice(20, 45);
    // Lists that existed weeks ago, as on a registry account with history.
    const seeded = [
      { name: `${DEMO_PREFIX}suppliers`, createdAt: addDays(today, -42), taxIds: suppliers },
      { name: `${DEMO_PREFIX}customers`, createdAt: addDays(today, -28), taxIds: customers },
    ];
    const seededKeys: string[] = [];
    for (const list of seeded) seededKeys.push(await seedEmulatorList(emulator.url, list));
    say(`Emulator (seed ${EMULATOR_SEED}) on ${emulator.url}, real clock; today is ${today} in Budapest.`);
    say(
      "  its realistic world: change files shared by the businesses of a form and day, listed out of order; same-day changes chained across chapters",
    );
    say(
      `  lists with history: ${seeded.map((l) => `${l.name} (${l.taxIds.length} items, since ${l.createdAt})`).join(", ")}`,
    );

    const config: Config & { watchUrl: string; apiKey: string; embeddedPort?: number } = {
      ...ctx.config,
      watchUrl: emulator.url,
      searchUrl: emulator.url,
      apiKey: emulator.apiKey,
      searchApiKey: emulator.apiKey,
      clientId: undefined,
      fileOrigins: [emulator.url],
      startDate: undefined,
      databaseUrl: opts.databaseUrl,
      dataDir: path.join(ctx.config.dataDir, "demo"),
      ...(opts.pgPort === undefined ? {} : { embeddedPort: opts.pgPort }),
    };
    if (ctx.config.databaseUrl && !opts.databaseUrl)
      say("DATABASE_URL is ignored: the demo keeps a database of its own (see --database-url).");

    return await withDatabase({ config, log }, async (db) => {
      say(
        `Database: ${db.origin === "embedded" ? `embedded Postgres in ${path.resolve(config.dataDir)}` : "DATABASE_URL"}`,
      );
      await refuseForeignState(db);
      const desired = {
        [`${DEMO_PREFIX}suppliers`]: [
          ...suppliers,
          ...watchable.slice(45, 50),
          wrongCheckDigit(watchable[50]!),
          unknownTaxId(),
        ],
        [`${DEMO_PREFIX}customers`]: customers,
        [`${DEMO_PREFIX}prospects`]: [...watchable.slice(51, 61), budgetOrg],
      };
      const written = await writeDesiredState(db, desired);
      say(
        `Desired state: ${Object.keys(desired).length} lists, ${written} new rows in desired_items (${DEMO_PREFIX}prospects is not on the registry yet; a few ids are invalid on purpose)`,
      );

      // One lock and one set of clients for the demo's reconcile, backfills and sync.
      const lock = await acquireRunLock(db.sql, { waitSeconds: 30 });
      const registry = openRegistry(config, log, db.sql);
      try {
        const rec = await reconcile(
          { config, log, db, registry: registry.clients, usage: registry.usage, lock },
          { trigger: "cli" },
        );
        if (rec.failure) throw rec.failure;
        say(
          `Reconcile: ${rec.status}; ${rec.stats.created ?? 0} list(s) created, ${Number(rec.stats.adopted) > 0 ? `${rec.stats.adopted} remote item(s) adopted into the desired state, ` : ""}${rec.stats.added ?? 0} item(s) added, ${(Number(rec.stats.addRefused) || 0) + (Number(rec.stats.invalid) || 0)} refused or invalid (see the item outcomes below)`,
        );
        const job = { sql: db.sql, config, log, trigger: "cli" as const, registry, lock };
        // Each list with history is backfilled from its own creation day.
        for (const [i, list] of seeded.entries()) {
          const backfill = await runSyncJob(job, {
            kind: "backfill",
            from: list.createdAt,
            lists: [seededKeys[i]!],
          });
          say(
            `Backfill of ${list.name} from ${list.createdAt}: ${describe(backfill.status, backfill.report)}`,
          );
        }
        const sync = await runSyncJob(job, { kind: "sync" });
        say(`Sync: ${describe(sync.status, sync.report)}`);
      } finally {
        await registry.close();
        await lock.release();
      }

      say("", formatStatus(await readFullStatus(db.sql, config)).trimEnd(), "");
      say(...(await whatChanged(db, config)), "");
      const evidence = await demoEvidenceReport(db, config, suppliers);
      if (evidence)
        say(
          `Payments: a sample batch of ${evidence.rows} payments checked and recorded as ${evidence.batchId} (${evidence.held} held); its evidence report: ${evidence.pdf}`,
          "",
        );
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      // A psql line only for a server that is still there when it is read: the embedded one
      // stops with the demo unless --keep holds it.
      if (db.origin === "embedded" && !opts.keep) {
        say(
          `Done in ${seconds} s. The embedded server stops when regwatch exits: run \`regwatch demo --keep\` to leave it up and get a psql command to look at the tables.`,
        );
        return EXIT.ok;
      }
      say(`Done in ${seconds} s. Look at the tables with:`);
      for (const line of psqlHint(db, config)) say(`  ${line}`);
      say(
        "  e.g. select * from regwatch.v_coverage;  select * from regwatch.v_changes limit 20;  select * from regwatch.v_item_failures;",
      );
      if (db.origin === "embedded") {
        // Listening before saying so: a Ctrl-C sent the moment the line is read must find the
        // handler there, or Node's default would end the demo without stopping its server cleanly.
        const stopped = new Promise<void>((resolve) => {
          process.once("SIGINT", () => resolve());
          process.once("SIGTERM", () => resolve());
        });
        say("The database stays up until Ctrl-C.");
        await stopped;
      }
      return EXIT.ok;
    });
  } finally {
    await emulator.close();
  }
}

async function seedEmulatorList(
  url: string,
  list: { name: string; createdAt: string; taxIds: string[] },
): Promise<string> {
  const response = await fetch(`${url}/_emulator/lists`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(list),
  });
  if (!response.ok) throw new Error(`the emulator refused list ${list.name}: ${await response.text()}`);
  return ((await response.json()) as { list_key: string }).list_key;
}

/** The demo writes sample rows: refuse a database that someone uses for real lists. */
async function refuseForeignState(db: Database): Promise<void> {
  const foreign = await desiredListsOutside(db.sql, DEMO_PREFIX);
  if (foreign.length > 0) {
    throw new RegwatchError(
      "DEMO_FOREIGN_DATA",
      `this database already has desired lists of its own (${foreign.join(", ")}); the demo writes sample rows, so run it on an empty database or the embedded one (unset DATABASE_URL)`,
    );
  }
}

/** The demo's desired state, through the same edits as `regwatch watch add`; the rows added. */
async function writeDesiredState(db: Database, desired: Record<string, string[]>): Promise<number> {
  return db.sql.begin(async (tx) => {
    let added = 0;
    for (const [listName, taxIds] of Object.entries(desired)) {
      await ensureDesiredList(tx, listName);
      added += (
        await addDesiredItems(
          tx,
          listName,
          taxIds.map((taxId) => ({ taxId })),
          "demo",
        )
      ).length;
    }
    return added;
  });
}

const FEED_DAYS = 7;
const FEED_LINES = 20;

/** The end of the demo: totals as the tables hold them, then the last days' feed, a screenful. */
async function whatChanged(db: Database, config: Config): Promise<string[]> {
  const t = await changeTotals(db.sql);
  const since = addDays(localDateTime(new Date(), config.tz).date, -FEED_DAYS);
  const rows = await readFeed(db.sql, { since, until: null, lists: [], headings: [], taxId: null });
  return [
    `In the database: ${t.changes} changes (${t.inSeveralLists} reported by more than one list, counted once), ${t.values} heading values from ${t.filesParsed} parsed files, ${t.profiles} business profiles`,
    "",
    `What changed since ${since} (newest first${rows.length > FEED_LINES ? `, ${FEED_LINES} of ${rows.length} lines` : ""}; more with \`regwatch changes\`):`,
    rows.length === 0
      ? "  nothing"
      : feedLines(rows.slice(0, FEED_LINES), { shorten: true })
          .trimEnd()
          .split("\n")
          .map((line) => `  ${line}`)
          .join("\n"),
  ];
}

function wrongCheckDigit(taxId: string): string {
  return `${taxId.slice(0, 7)}${(Number(taxId[7]) + 1) % 10}`;
}

/** Well formed, but no business of the data set has it (no type's numbers start with 9). */
function unknownTaxId(): string {
  return `9900000${checkDigit("9900000")}`;
}

function describe(
  status: string,
  r:
    | { windowsDone: number; changesWritten: number; filesFetched: number; changeRequests: number }
    | undefined,
): string {
  if (!r) return status;
  return `${status}; ${r.windowsDone} windows, ${r.changeRequests} change requests, ${r.changesWritten} changes written, ${r.filesFetched} files fetched`;
}

function psqlHint(db: Database, config: Config): string[] {
  if (db.origin !== "embedded") return ['psql "$DATABASE_URL"'];
  const url = new URL(db.url);
  const stateFile = path.resolve(config.dataDir, "embedded.json");
  return [
    `host ${url.hostname}, port ${url.port}, user ${decodeURIComponent(url.username)}, database ${url.pathname.slice(1)}; the password is the "password" field of ${stateFile}`,
    `PGPASSWORD="$(node -p 'require(process.argv[1]).password' ${stateFile})" psql -h ${url.hostname} -p ${url.port} -U ${decodeURIComponent(url.username)} ${url.pathname.slice(1)}`,
  ];
}

/** A TCP port for --port and --pg-port: 1 to 65535 (0, any free port, is the default already). */
function parsePort(value: string): number {
  const port = parseNonNegativeInt(value);
  if (port < 1 || port > 65535) throw new InvalidArgumentError(`"${value}" is not a port (1 to 65535)`);
  return port;
}
