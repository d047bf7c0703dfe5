/**
 * `regwatch watch {add,remove,list,import,drop-list}`: operators edit the desired state. These commands
 * only write desired_lists and desired_items (registration numbers are resolved through the
 * search interface first); `regwatch reconcile` carries the edits to the registry.
 */
import type { Command } from "commander";
import pLimit from "p-limit";
import type { SearchClient } from "../api/search-client.ts";
import type { BusinessRecord } from "../api/search-schemas.ts";
import { fileSource, givenNameLabel, userSource } from "../changes/given-name.ts";
import { requireSearch } from "../config.ts";
import type { Database } from "../db/connect.ts";
import { EXIT, InputError, RegwatchError, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { factsFromOperator, registryDay } from "../parse/profile-facts.ts";
import { saveBusinesses } from "../parse/save-businesses.ts";
import { writeProfiles } from "../parse/sql/business-profiles.ts";
import {
  addDesiredItems,
  type DesiredEntry,
  desiredListExists,
  ensureDesiredList,
  listDesiredItems,
  removeDesiredItem,
} from "../reconcile/sql/desired-edit.ts";
import { dropDesiredList } from "../reconcile/sql/dropped-lists.ts";
import { formatTable } from "../search/format.ts";
import { describeImportProblems, type ImportProblem, parseImportCsv } from "../search/import-csv.ts";
import { type ImportText, readImportFile } from "../search/import-file.ts";
import { type Resolution, taxIdForRegistrationNumber } from "../search/resolve.ts";
import { readGivenNames, saveGivenNames } from "../search/sql/given-names.ts";
import { redactError } from "../secrets.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { osUser } from "./actor.ts";
import { type Context, runAction, withDatabase } from "./context.ts";
import { namedList } from "./list-arg.ts";
import { withSearch } from "./lookup.ts";
import { checkListName, checkRegNumberArg, checkTaxIdArg, newListNote, safeLabel } from "./watch-args.ts";
import { importNotes } from "./watch-import-notes.ts";

interface AddOptions extends AccountFlag {
  list: string;
  taxId?: string;
  regNumber?: string;
  note?: string;
  name?: string;
  prune?: boolean;
}

export function registerWatch(program: Command): void {
  const watch = program
    .command("watch")
    .description("manage what should be watched (desired_items); run `regwatch reconcile` to apply");

  watch
    .command("add")
    .addOption(accountOption())
    .description("add a business to a desired list (the list is created when missing)")
    .requiredOption("--list <list>", "desired list, by name or by the key of its remote list")
    .option("--tax-id <id>", "tax base number (8 digits)")
    .option("--reg-number <number>", "registration number, resolved to its tax base number through search")
    .option("--note <text>", "free text kept with the item")
    .option("--name <name>", "the business's name, for one the search cannot find by tax id")
    .option("--prune", "remove remote items that are not desired (the default for a new list)")
    .option("--no-prune", "leave remote items that are not desired on the list")
    .action((options: AddOptions) =>
      runAction(async (ctx) => {
        const listRef = checkListName(options.list);
        if ((options.taxId === undefined) === (options.regNumber === undefined)) {
          throw new UsageError("give exactly one of --tax-id and --reg-number");
        }
        const given = options.taxId === undefined ? undefined : checkTaxIdArg(options.taxId);
        const name = options.name?.trim();
        if (name === "") throw new UsageError("--name must not be empty");
        const regNumber = options.regNumber === undefined ? undefined : checkRegNumberArg(options.regNumber);
        if (regNumber !== undefined) requireSearch(ctx.config);
        return withDatabase(ctx, async (db) => {
          const list = await namedList(db.sql, listRef);
          const listName = list.name;
          let taxId = given;
          if (regNumber !== undefined) {
            const resolution = (await resolveRegNumbers(ctx, db, [regNumber])).get(regNumber)!;
            if (!resolution.ok) throw new InputError(resolution.problem);
            taxId = resolution.taxId;
          }
          const entry: DesiredEntry = { taxId: taxId!, note: options.note ?? null };
          const { created, added } = await db.sql.begin(async (tx) => ({
            created: (await ensureDesiredList(tx, listName, options.prune)).created,
            added: await addDesiredItems(tx, listName, [entry], "cli"),
            named: name
              ? await writeProfiles(tx, [
                  factsFromOperator(entry.taxId, name, registryDay(ctx.config.registryTz)),
                ])
              : undefined,
            given: name
              ? await saveGivenNames(tx, [
                  { taxId: entry.taxId, name, source: userSource(osUser() ?? "cli") },
                ])
              : undefined,
          }));
          const from = regNumber === undefined ? "" : ` (registration number ${regNumber})`;
          const what = added.length > 0 ? "added to" : "was already desired on";
          process.stdout.write(
            `${entry.taxId}${from} ${what} list ${safeLabel(list)}${newListNote(created, list)}\n`,
          );
          return EXIT.ok;
        });
      }, options),
    );

  watch
    .command("remove")
    .addOption(accountOption())
    .description("remove a business from a desired list")
    .requiredOption("--list <list>", "desired list, by name or by the key of its remote list")
    .requiredOption("--tax-id <id>", "tax base number (8 digits)")
    .action((options: { list: string; taxId: string } & AccountFlag) =>
      runAction(async (ctx) => {
        const listRef = checkListName(options.list);
        const taxId = checkTaxIdArg(options.taxId);
        return withDatabase(ctx, async (db) => {
          const list = await namedList(db.sql, listRef);
          if (!(await desiredListExists(db.sql, list.name))) {
            throw new InputError(`there is no desired list ${safeLabel(list)} (see regwatch watch list)`);
          }
          const removed = await removeDesiredItem(db.sql, list.name, taxId);
          process.stdout.write(
            removed
              ? `${taxId} removed from list ${safeLabel(list)}\n`
              : `${taxId} was not desired on list ${safeLabel(list)}; nothing changed\n`,
          );
          return EXIT.ok;
        });
      }, options),
    );

  watch
    .command("list")
    .addOption(accountOption())
    .description("show desired lists and items with their reconcile state")
    .option("--list <list>", "only this list (name or key)")
    .option("--json", "print the result as JSON")
    .action((options: { list?: string; json?: boolean } & AccountFlag) =>
      runAction(async (ctx) => {
        const listRef = options.list === undefined ? undefined : checkListName(options.list);
        const { rows, list } = await withDatabase(ctx, async (db) => {
          const list = listRef === undefined ? undefined : await namedList(db.sql, listRef);
          const items = await listDesiredItems(db.sql, list?.name);
          const unnamed = items.flatMap((r) => (r.taxId && !r.businessName ? [r.taxId] : []));
          const given = await readGivenNames(db.sql, [...new Set(unnamed)]);
          const rows = items.map((r) => ({ ...r, givenName: (r.taxId && given.get(r.taxId)) || null }));
          return { rows, list };
        });
        if (list !== undefined && rows.length === 0) {
          throw new InputError(`there is no desired list ${safeLabel(list)}`);
        }
        if (options.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        else if (rows.length === 0) process.stdout.write("no desired lists\n");
        else {
          // Rows other systems wrote and names from the registry: shown escaped, exact in --json.
          const body = rows.map((r) =>
            [
              r.listName,
              r.taxId ?? "(no items)",
              r.state ?? "",
              r.businessName ?? (r.givenName ? givenNameLabel(r.givenName) : ""),
              r.source ?? "",
              r.lastCode === null ? "" : `${r.lastCode} ${r.lastMessage ?? ""}`,
            ].map(terminalSafe),
          );
          const headers = ["LIST", "TAX ID", "STATE", "NAME", "SOURCE", "LAST FAILURE"];
          process.stdout.write(`${formatTable(headers, body)}\n`);
        }
        return EXIT.ok;
      }, options),
    );

  watch
    .command("import")
    .addOption(accountOption())
    .description(
      "add every business of a CSV file (a tax number or registration number column, optional name and note; Hungarian headers and Windows-1250 read) to a list",
    )
    .requiredOption("--list <list>", "desired list, by name or by the key of its remote list")
    .argument("<file>", "CSV file with a header line")
    .option("--prune", "remove remote items that are not desired (the default for a new list)")
    .option("--no-prune", "leave remote items that are not desired on the list")
    .action((file: string, options: { list: string; prune?: boolean } & AccountFlag) =>
      runAction(async (ctx) => importFile(ctx, file, checkListName(options.list), options.prune), options),
    );

  registerDropList(watch);
}

async function importFile(ctx: Context, file: string, listRef: string, prune?: boolean) {
  let read: ImportText;
  try {
    read = await readImportFile(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const parsed = parseImportCsv(read.text);
  if (parsed.problems.length > 0) throw new UsageError(describeImportProblems(file, parsed.problems));
  const regNumbers = [...new Set(parsed.rows.flatMap((r) => ("regNumber" in r ? [r.regNumber] : [])))];
  if (regNumbers.length > 0) requireSearch(ctx.config);
  return withDatabase(ctx, async (db) => {
    const list = await namedList(db.sql, listRef);
    const listName = list.name;
    const resolved = regNumbers.length > 0 ? await resolveRegNumbers(ctx, db, regNumbers) : new Map();
    const problems: ImportProblem[] = [];
    const entries = new Map<string, DesiredEntry>();
    const names = new Map<string, string>();
    for (const row of parsed.rows) {
      let taxId: string;
      if ("taxId" in row) taxId = row.taxId;
      else {
        const resolution: Resolution = resolved.get(row.regNumber)!;
        if (!resolution.ok) {
          problems.push({ line: row.line, message: resolution.problem });
          continue;
        }
        taxId = resolution.taxId;
      }
      if (!entries.has(taxId)) entries.set(taxId, { taxId, note: row.note });
      // A name in the file names a business the search may not find by its tax id.
      if (row.name && !names.has(taxId)) names.set(taxId, row.name);
    }
    if (problems.length > 0) throw new InputError(describeImportProblems(file, problems));
    const today = registryDay(ctx.config.registryTz);
    const { created, added } = await db.sql.begin(async (tx) => {
      const result = {
        created: (await ensureDesiredList(tx, listName, prune)).created,
        added: await addDesiredItems(tx, listName, [...entries.values()], "import"),
      };
      if (names.size > 0) {
        await writeProfiles(
          tx,
          [...names].map(([taxId, name]) => factsFromOperator(taxId, name, today)),
        );
        const source = fileSource(file);
        await saveGivenNames(
          tx,
          [...names].map(([taxId, name]) => ({ taxId, name, source })),
        );
      }
      return result;
    });
    process.stdout.write(
      `${file}: ${parsed.rows.length} row(s), ${entries.size} business(es): ${added.length} added to list ` +
        `${safeLabel(list)}, ${entries.size - added.length} already desired${newListNote(created, list)}\n`,
    );
    process.stdout.write(importNotes(read, parsed.ignored ?? [], names.size, file));
    return EXIT.ok;
  });
}

/**
 * One search per distinct registration number. Refuses up front when the month's quota cannot pay
 * for all of them, so an import never stops halfway having spent part of it.
 */
async function resolveRegNumbers(
  ctx: Context,
  db: Database,
  regNumbers: readonly string[],
): Promise<Map<string, Resolution>> {
  return withSearch(ctx, db, async (client: SearchClient, quota) => {
    if (regNumbers.length > quota.remaining) {
      throw new InputError(
        `resolving ${regNumbers.length} registration number(s) needs as many search requests, but only ` +
          `${quota.remaining} of REGWATCH_SEARCH_MONTHLY_QUOTA=${quota.limit} are left this month; no request was sent`,
      );
    }
    const limit = pLimit(ctx.config.concurrency);
    const found: BusinessRecord[] = [];
    // A search that fails fails its own rows; every record already paid for is kept.
    const pairs = await Promise.all(
      regNumbers.map((regNumber) =>
        limit(async (): Promise<readonly [string, Resolution]> => {
          try {
            const { records } = await client.search("reg-number", regNumber);
            found.push(...records);
            return [regNumber, taxIdForRegistrationNumber(regNumber, records)];
          } catch (error) {
            if (!(error instanceof RegwatchError)) throw error;
            return [
              regNumber,
              { ok: false, problem: `searching ${regNumber} failed: ${redactError(error)}` },
            ];
          }
        }),
      ),
    );
    await saveBusinesses(db.sql, found, ctx.config.registryTz);
    return new Map(pairs);
  });
}

/**
 * `regwatch watch drop-list LIST`: the desired list and its desired items go. Its remote list
 * stays until a reconcile run with --allow-delete-lists deletes it; dropped_lists keeps the fact
 * that the list was regwatch's, so no list regwatch never managed can be deleted that way.
 */
export function registerDropList(watch: Command): void {
  watch
    .command("drop-list")
    .addOption(accountOption())
    .description(
      "remove a desired list and its items; reconcile --allow-delete-lists deletes its remote list",
    )
    .argument("<list>", "desired list, by name or by the key of its remote list")
    .action((ref: string, opts: AccountFlag) =>
      runAction(
        (ctx) =>
          withDatabase(ctx, async (db) => {
            const list = await namedList(db.sql, ref.trim());
            const dropped = await dropDesiredList(db.sql, list.name, list.key);
            if (!dropped)
              throw new InputError(`there is no desired list ${safeLabel(list)} (see regwatch watch list)`);
            process.stdout.write(
              `list ${safeLabel(list)} dropped with its ${dropped.items} desired item(s). ` +
                (list.key
                  ? "The next `regwatch reconcile --allow-delete-lists` deletes the remote list; a reconcile without it leaves the list in place.\n"
                  : "No remote list of that name is known; reconcile --allow-delete-lists deletes one if it appears.\n"),
            );
            return EXIT.ok;
          }),
        opts,
      ),
    );
}
