/**
 * `regwatch lookup KIND VALUE`: asks the search interface, keeps what it returns in `businesses`,
 * and prints a table (or JSON). Also home of `withSearch`, which every command that searches uses
 * (the client, its quota and its accounting come from openSearch).
 */
import { Argument, type Command } from "commander";
import type { SearchClient, SearchQuota } from "../api/search-client.ts";
import { checkSearchValue, SEARCH_KINDS, type SearchKind } from "../api/search-query.ts";
import type { BusinessRecord } from "../api/search-schemas.ts";
import { statusInWords } from "../changes/status-words.ts";
import { requireSearch } from "../config.ts";
import type { Database } from "../db/connect.ts";
import { EXIT, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { saveBusinesses } from "../parse/save-businesses.ts";
import { openSearch } from "../run/open-registry.ts";
import { formatRecordTable } from "../search/format.ts";
import { readStatusesNow, type StatusNow } from "../search/sql/newest-statuses.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { parsePositiveInt } from "./arg-parsers.ts";
import { type Context, runAction, withDatabase } from "./context.ts";

/**
 * Runs `fn` with a search client (see openSearch) and closes it after, whether `fn` succeeded
 * or not; an accounting failure replaces no error of the command's own, which says more.
 */
export async function withSearch<T>(
  ctx: Context,
  db: Database,
  fn: (client: SearchClient, quota: SearchQuota) => Promise<T>,
): Promise<T> {
  requireSearch(ctx.config);
  const search = await openSearch(ctx.config, ctx.log, db.sql);
  let result: T;
  try {
    result = await fn(search.client, search.quota);
  } catch (error) {
    await search.close().catch(() => {});
    throw error;
  }
  await search.close();
  return result;
}

interface LookupOptions extends AccountFlag {
  all?: boolean;
  limit?: number;
  json?: boolean;
}

export function registerLookup(program: Command): void {
  program
    .command("lookup")
    .addOption(accountOption())
    .description(
      "search the registry by registration number, name or bank account; results are kept in businesses",
    )
    .addArgument(new Argument("<kind>", "what VALUE is").choices(SEARCH_KINDS))
    .argument(
      "<value>",
      "registration number, name (3+ characters) or bank account (full or 17-character prefix)",
    )
    .option("--all", "follow every page (each page is one request against the monthly quota)")
    .option("--limit <n>", "ask for at most N hits (name searches)", parsePositiveInt)
    .option("--json", "print the result as JSON")
    .action((kind: SearchKind, value: string, options: LookupOptions) =>
      runAction(async (ctx) => {
        // Checked before the database is opened: a bad value costs nothing.
        const checked = checkSearchValue(kind, value);
        if (!checked.ok) throw new UsageError(checked.problem);
        requireSearch(ctx.config);
        const kept = new Set<string>();
        const { result, statuses } = await withDatabase(ctx, async (db) => {
          const result = await withSearch(ctx, db, (client) =>
            client.search(kind, checked.value, {
              all: options.all,
              limit: options.limit,
              onPage: async (page) => {
                const saved = await saveBusinesses(db.sql, page.results, ctx.config.registryTz);
                for (const taxId of saved.taxIds) kept.add(taxId);
                for (const record of saved.skipped) {
                  ctx.log.warn(
                    { tax_number: record.tax_number },
                    "record without a tax base number not kept",
                  );
                }
              },
            }),
          );
          // The status every surface gives: the newest dated evidence, the record just read among it.
          const statuses = await readStatusesNow(db.sql, [...kept], ctx.config.registryTz);
          return { result, statuses };
        });
        printLookup(kind, checked.value, result, statuses, options);
        return EXIT.ok;
      }, options),
    );
}

function printLookup(
  kind: SearchKind,
  value: string,
  result: { records: BusinessRecord[]; pages: number; hasMore: boolean },
  statuses: ReadonlyMap<string, StatusNow>,
  options: LookupOptions,
): void {
  if (options.json) {
    const report = {
      kind,
      value,
      pages: result.pages,
      has_more: result.hasMore,
      results: result.records,
      // Per tax base number: the status of the newest dated evidence, which may be newer than the record's.
      statuses: Object.fromEntries(
        [...statuses.values()].map((s) => [
          s.taxId,
          {
            status_code: s.statusCode,
            status: statusInWords(s.statusCode),
            as_of: s.statusOn,
            source: s.statusSource,
          },
        ]),
      ),
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  if (result.records.length === 0) {
    process.stdout.write(`no business found for ${kind} "${terminalSafe(value)}"\n`);
    return;
  }
  process.stdout.write(`${formatRecordTable(result.records, statuses)}\n`);
  const pages = result.pages === 1 ? "1 page" : `${result.pages} pages`;
  process.stdout.write(`\n${result.records.length} record(s) from ${pages}\n`);
  if (result.hasMore) {
    process.stdout.write("more results exist: run again with --all (each page counts against the quota)\n");
  }
}
