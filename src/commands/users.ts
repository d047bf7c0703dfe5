/**
 * `regwatch users add|list|passwd|set-locale|remove|grant|revoke`: the people who may sign in to the web
 * console and, with an accounts file, the accounts each may see (their role applies in each; an
 * admin too sees only the accounts given). A password comes only from standard input (one line),
 * is checked for length, and is stored as a scrypt hash; it is never printed, logged or passed on
 * the command line, where `ps` would show it.
 */
import type { Command } from "commander";
import { Option } from "commander";
import { loadAccounts, pickAccount } from "../accounts.ts";
import type { Config } from "../config.ts";
import { accountsOfUser, grantAccounts, revokeAccounts } from "../console/access.ts";
import {
  addConsoleUser,
  CONSOLE_ROLES,
  type ConsoleRole,
  listConsoleUsers,
  setConsoleLocale,
  setConsolePassword,
} from "../console/users.ts";
import { removeConsoleUserKeepingAdmin, USER_NAME, userName } from "../console/users-admin.ts";
import { isoInZone } from "../dates.ts";
import { EXIT, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { isLocale, LOCALES, type Locale } from "../i18n/locales.ts";
import { formatTable } from "../search/format.ts";
import { hashPassword, MAX_PASSWORD_LENGTH, passwordProblem } from "../web/passwords.ts";
import { runAction, withDatabase } from "./context.ts";
import { TerminalPrompt } from "./password-prompt.ts";
import { readStdinLine } from "./stdin-line.ts";

export function registerUsers(program: Command): void {
  const users = program
    .command("users")
    .description(
      "people who may sign in to the web console (regwatch web): add, list, passwd, set-locale, remove, grant, revoke",
    );

  users
    .command("add <name>")
    .description(
      "add a console user with a role; the password is asked twice on a terminal, or one line on standard input with --password-stdin",
    )
    .addOption(
      new Option("--role <role>", "what the user may do").choices(CONSOLE_ROLES).makeOptionMandatory(),
    )
    .option("--password-stdin", "read the password (at least 12 characters) from standard input")
    .option("--account <names...>", "with an accounts file: the accounts the user may see (repeatable)")
    .addOption(localeOption())
    .action(
      (
        name: string,
        opts: { role: ConsoleRole; account?: string[]; locale?: Locale; passwordStdin?: boolean },
      ) =>
        runAction(async (ctx) => {
          const userName = checkUserName(name);
          const accounts = opts.account ? knownAccounts(ctx.config, opts.account) : [];
          const passwordHash = await hashPassword(await newPassword(opts));
          const locale = opts.locale ?? null;
          const added = await withDatabase(ctx, (db) =>
            addConsoleUser(db.sql, { name: userName, role: opts.role, passwordHash, locale, accounts }),
          );
          if (!added)
            throw new UsageError(
              `user "${userName}" exists already; \`regwatch users passwd ${userName}\` sets a new password`,
            );
          const given =
            accounts.length > 0
              ? ` with account${accounts.length > 1 ? "s" : ""} ${accounts.join(", ")}`
              : "";
          process.stdout.write(`added ${userName} (${opts.role})${given}; sign in at the console's /login\n`);
          return EXIT.ok;
        }),
    );

  users
    .command("list")
    .description("console users with their role, signed-in sessions and (with an accounts file) accounts")
    .action(() =>
      runAction(async (ctx) => {
        const fleet = loadAccounts(ctx.config) !== undefined;
        const rows = await withDatabase(ctx, (db) => listConsoleUsers(db.sql, new Date()), { max: 1 });
        if (rows.length === 0) {
          process.stdout.write(
            "no console users yet: `regwatch users add NAME --role admin` (asks for a password)\n",
          );
          return EXIT.ok;
        }
        // Instants in REGWATCH_TZ with its offset, as `status` shows them.
        const when = (at: Date) => isoInZone(at, ctx.config.tz);
        const table = rows.map((u) => [
          u.name,
          u.role,
          u.locale ?? "-",
          when(u.createdAt),
          when(u.updatedAt),
          String(u.activeSessions),
          ...(fleet ? [u.accounts.join(",") || "-"] : []),
        ]);
        const headers = [
          "NAME",
          "ROLE",
          "LANGUAGE",
          "ADDED",
          "CHANGED",
          "SESSIONS",
          ...(fleet ? ["ACCOUNTS"] : []),
        ];
        process.stdout.write(formatTable(headers, table));
        return EXIT.ok;
      }),
    );

  users
    .command("passwd <name>")
    .description(
      "set a console user's password (asked twice on a terminal, or --password-stdin); their sessions end",
    )
    .option("--password-stdin", "read the new password (at least 12 characters) from standard input")
    .action((name: string, opts: { passwordStdin?: boolean }) =>
      runAction(async (ctx) => {
        const userName = checkUserName(name);
        const passwordHash = await hashPassword(await newPassword(opts));
        // The operator (the database and the accounts file are theirs) acts on every user: scope null.
        const changed = await withDatabase(ctx, (db) =>
          setConsolePassword(db.sql, userName, passwordHash, null),
        );
        if (changed === "external")
          throw new UsageError(
            `nothing was changed: ${userName} signs in through the company's identity provider, which holds their password; reset it there`,
          );
        if (changed !== "done") throw new UsageError(`no console user "${userName}"`);
        process.stdout.write(`new password set for ${userName}; their sessions have ended\n`);
        return EXIT.ok;
      }),
    );

  users
    .command("set-locale <name> <locale>")
    .description(
      "the language the console speaks to a user: en, hu, or browser (the browser's, else REGWATCH_LOCALE)",
    )
    .action((name: string, locale: string) =>
      runAction(async (ctx) => {
        const userName = checkUserName(name);
        if (locale !== "browser" && !isLocale(locale))
          throw new UsageError(`locale "${locale}" must be one of ${LOCALES.join(", ")} or browser`);
        const chosen = isLocale(locale) ? locale : null;
        const changed = await withDatabase(ctx, (db) => setConsoleLocale(db.sql, userName, chosen, null));
        if (changed !== "done") throw new UsageError(`no console user "${userName}"`);
        process.stdout.write(
          chosen
            ? `${userName} sees the console in ${chosen} from their next page on\n`
            : `${userName} sees the console in their browser's language (else REGWATCH_LOCALE) from their next page on\n`,
        );
        return EXIT.ok;
      }),
    );

  users
    .command("remove <name>")
    .description(
      "remove a console user; their sessions end (what they did stays in the alerts' history); never the last admin",
    )
    .action((name: string) =>
      runAction(async (ctx) => {
        const userName = checkUserName(name);
        // The console's own rule (its users page): the console always keeps an admin.
        const outcome = await withDatabase(ctx, (db) =>
          removeConsoleUserKeepingAdmin(db.sql, userName, null),
        );
        if (outcome === "last-admin")
          throw new UsageError(
            `nothing was changed: ${userName} is the last admin, and the console needs one; add another admin first (\`regwatch users add NAME --role admin\`)`,
          );
        if (outcome === "no-such-user") throw new UsageError(`no console user "${userName}"`);
        process.stdout.write(`removed ${userName}\n`);
        return EXIT.ok;
      }),
    );

  registerAccountCommands(users);
}

function registerAccountCommands(users: Command): void {
  users
    .command("grant <name>")
    .description("with an accounts file: let a console user see more accounts (same role in each)")
    .requiredOption("--account <names...>", "the accounts to give (repeatable)")
    .action((name: string, opts: { account: string[] }) =>
      runAction(async (ctx) => {
        const userName = checkUserName(name);
        const accounts = knownAccounts(ctx.config, opts.account);
        const given = await withDatabase(ctx, (db) => grantAccounts(db.sql, userName, accounts));
        if (!given) throw new UsageError(`no console user "${userName}"`);
        const already = accounts.filter((a) => !given.includes(a));
        process.stdout.write(
          `${userName} may see ${accounts.join(", ")}${already.length > 0 ? ` (had ${already.join(", ")} already)` : ""}\n`,
        );
        return EXIT.ok;
      }),
    );

  users
    .command("revoke <name>")
    .description("with an accounts file: stop a console user seeing accounts (from their next page on)")
    .requiredOption("--account <names...>", "the accounts to take away (repeatable)")
    .action((name: string, opts: { account: string[] }) =>
      runAction(async (ctx) => {
        const userName = checkUserName(name);
        const taken = await withDatabase(ctx, async (db) => {
          // An account dropped from the file can still be taken from the users who had it.
          const held = await accountsOfUser(db.sql, userName);
          const accounts = knownAccounts(ctx.config, opts.account, held);
          return revokeAccounts(db.sql, userName, accounts);
        });
        if (!taken) throw new UsageError(`no console user "${userName}"`);
        process.stdout.write(
          taken.length > 0
            ? `${userName} no longer sees ${taken.join(", ")}\n`
            : `${userName} had none of them\n`,
        );
        return EXIT.ok;
      }),
    );
}

/**
 * The account names given, each checked against the accounts file (or `alsoKnown`), without
 * repeats; a usage error (64) without an accounts file or naming an account the file lacks.
 */
function knownAccounts(
  config: Config,
  names: readonly string[],
  alsoKnown: readonly string[] = [],
): string[] {
  const accounts = loadAccounts(config);
  if (accounts === undefined)
    throw new UsageError("--account: no accounts file: REGWATCH_ACCOUNTS_FILE is not set");
  const wanted = [...new Set(names.flatMap((n) => n.split(",")).map((n) => n.trim()))].filter(Boolean);
  if (wanted.length === 0) throw new UsageError("--account: name at least one account");
  for (const name of wanted) if (!alsoKnown.includes(name)) pickAccount(accounts, name);
  return wanted;
}

/** `--locale en|hu`: the console's language for the user; absent, the browser's, else REGWATCH_LOCALE. */
function localeOption(): Option {
  return new Option(
    "--locale <locale>",
    "the console's language for the user (default: the browser's)",
  ).choices(LOCALES);
}

function checkUserName(raw: string): string {
  const name = userName(raw);
  if (!USER_NAME.test(name)) {
    throw new UsageError(
      `user name "${terminalSafe(raw)}" must be 1 to 64 letters (accented ones too, as in kovács.éva), digits, ".", "_", "@" or "-"`,
    );
  }
  return name;
}

/**
 * The longest line a password may take on standard input: its most characters, each at most
 * three bytes of UTF-8 (a pair of UTF-16 halves is four bytes for two), and a CRLF line end.
 */
const PASSWORD_LINE_BYTES = 3 * MAX_PASSWORD_LENGTH + 2;

/**
 * The first line of standard input, without its line end; refused when too short, too long or
 * missing. At most one byte past the longest allowed line is read, whatever is piped in.
 */
async function passwordFromStdin(): Promise<string> {
  const read = await readStdinLine(PASSWORD_LINE_BYTES + 1);
  if (!read.ok) {
    throw new UsageError(
      `the password on standard input is longer than ${MAX_PASSWORD_LENGTH} characters allow: nothing past its first ${PASSWORD_LINE_BYTES + 1} bytes was read`,
    );
  }
  const password = read.line;
  if (password === "")
    throw new UsageError("no password on standard input: pipe one line, e.g. `... --password-stdin < file`");
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(problem);
  return password;
}

/**
 * The new password: from standard input with --password-stdin; else asked twice on the terminal,
 * nothing echoed; without a terminal, how to give one.
 */
async function newPassword(opts: { passwordStdin?: boolean }): Promise<string> {
  if (opts.passwordStdin) return passwordFromStdin();
  if (!process.stdin.isTTY)
    throw new UsageError(
      "no terminal to ask for the password: give it as one line on standard input with --password-stdin (e.g. `... --password-stdin < password-file`)",
    );
  const prompt = new TerminalPrompt();
  const first = await prompt.hidden("password (at least 12 characters, not shown): ", MAX_PASSWORD_LENGTH);
  if (!first.ok) throw new UsageError(`the password is longer than ${MAX_PASSWORD_LENGTH} characters allow`);
  const problem = passwordProblem(first.line);
  if (problem) throw new UsageError(problem);
  const second = await prompt.hidden("the same password again: ", MAX_PASSWORD_LENGTH);
  if (!second.ok || second.line !== first.line)
    throw new UsageError("the two passwords differ; nothing was changed");
  return first.line;
}
