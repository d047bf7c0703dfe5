/**
 * `regwatch users add|list|passwd|remove`: the people who may sign in to the web console. A
 * password comes only from standard input (one line), is checked for length, and is stored as a
 * scrypt hash; it is never printed, logged or passed on the command line, where `ps` would show it.
 */
import type { Command } from "commander";
import { Option } from "commander";
import {
  addConsoleUser,
  CONSOLE_ROLES,
  type ConsoleRole,
  listConsoleUsers,
  removeConsoleUser,
  setConsolePassword,
} from "../db/console-users.ts";
import { EXIT, UsageError } from "../errors.ts";
import { formatTable } from "../search/format.ts";
import { hashPassword, passwordProblem } from "../web/passwords.ts";
import { runAction, withDatabase } from "./context.ts";

const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

export function registerUsers(program: Command): void {
  const users = program
    .command("users")
    .description("people who may sign in to the web console (regwatch web): add, list, passwd, remove");

  users
    .command("add <name>")
    .description("add a console user with a role; the password is one line on standard input")
    .addOption(
      new Option("--role <role>", "what the user may do").choices(CONSOLE_ROLES).makeOptionMandatory(),
    )
    .requiredOption("--password-stdin", "read the password (at least 12 characters) from standard input")
    .action((name: string, opts: { role: ConsoleRole }) =>
      runAction(async (ctx) => {
        const userName = checkUserName(name);
        const passwordHash = await hashPassword(await passwordFromStdin());
        const added = await withDatabase(ctx, (db) =>
          addConsoleUser(db.sql, { name: userName, role: opts.role, passwordHash }),
        );
        if (!added)
          throw new UsageError(
            `user "${userName}" exists already; \`regwatch users passwd ${userName} --password-stdin\` sets a new password`,
          );
        process.stdout.write(`added ${userName} (${opts.role}); sign in at the console's /login\n`);
        return EXIT.ok;
      }),
    );

  users
    .command("list")
    .description("console users with their role and signed-in sessions")
    .action(() =>
      runAction(async (ctx) => {
        const rows = await withDatabase(ctx, (db) => listConsoleUsers(db.sql, new Date()), { max: 1 });
        if (rows.length === 0) {
          process.stdout.write(
            "no console users yet: `regwatch users add NAME --role admin --password-stdin`\n",
          );
          return EXIT.ok;
        }
        process.stdout.write(
          formatTable(
            ["NAME", "ROLE", "ADDED", "CHANGED", "SESSIONS"],
            rows.map((u) => [
              u.name,
              u.role,
              u.createdAt.toISOString(),
              u.updatedAt.toISOString(),
              String(u.activeSessions),
            ]),
          ),
        );
        return EXIT.ok;
      }),
    );

  users
    .command("passwd <name>")
    .description("set a console user's password from standard input; their sessions end")
    .requiredOption("--password-stdin", "read the new password (at least 12 characters) from standard input")
    .action((name: string) =>
      runAction(async (ctx) => {
        const userName = checkUserName(name);
        const passwordHash = await hashPassword(await passwordFromStdin());
        const changed = await withDatabase(ctx, (db) => setConsolePassword(db.sql, userName, passwordHash));
        if (!changed) throw new UsageError(`no console user "${userName}"`);
        process.stdout.write(`new password set for ${userName}; their sessions have ended\n`);
        return EXIT.ok;
      }),
    );

  users
    .command("remove <name>")
    .description("remove a console user; their sessions end (what they did stays in the alerts' history)")
    .action((name: string) =>
      runAction(async (ctx) => {
        const userName = checkUserName(name);
        const removed = await withDatabase(ctx, (db) => removeConsoleUser(db.sql, userName));
        if (!removed) throw new UsageError(`no console user "${userName}"`);
        process.stdout.write(`removed ${userName}\n`);
        return EXIT.ok;
      }),
    );
}

function checkUserName(raw: string): string {
  if (!USER_NAME.test(raw)) {
    throw new UsageError(`user name "${raw}" must be 1 to 64 letters, digits, ".", "_", "@" or "-"`);
  }
  return raw;
}

/** The first line of standard input, without its line end; refused when too short or missing. */
async function passwordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write("password (one line, not shown again): ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if ((chunk as Buffer).includes(10)) break;
  }
  const password = Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
  if (password === "")
    throw new UsageError("no password on standard input: pipe one line, e.g. `... --password-stdin < file`");
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(problem);
  return password;
}
