/**
 * `/users` (admins only): who may sign in, with their role, open sessions and (with an accounts
 * file) accounts; admins add users, change roles, reset passwords and remove users here. A new or
 * reset password is generated, stored as a hash and shown once, on the answer to the form that
 * made it (never in an address, a log or a later page). Neither a role change nor a removal may
 * leave the console without an admin. With an accounts file an admin sees and changes only the
 * users whose accounts they hold all of, and gives only those accounts (users-scope.ts); 403 else.
 */
import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { accountsOfUser } from "../../console/access.ts";
import {
  addConsoleUser,
  CONSOLE_ROLES,
  type ConsoleRole,
  listConsoleUsers,
  setConsoleLocale,
  setConsolePassword,
} from "../../console/users.ts";
import {
  type AdminChange,
  removeConsoleUserKeepingAdmin,
  setConsoleRole,
  USER_NAME,
  userName,
} from "../../console/users-admin.ts";
import { type AdminScope, adminScope, withinScope } from "../../console/users-scope.ts";
import { fill } from "../fill-message.ts";
import type { RegisterPages } from "../kit.ts";
import { hashPassword } from "../passwords.ts";
import { form, line, query, repeated, typedText } from "../route-schemas.ts";
import { SESSION_COOKIE } from "../session-tokens.ts";
import { ACCOUNT_CHECKBOXES_MAX, ACCOUNTS_NAMED, givenAccounts, TYPED_NAMES_MAX } from "./given-accounts.ts";
import { type UsersMessages, usersMessages } from "./users-admin-messages.ts";

const NAME_PARAM = { type: "object", properties: { name: line(200) }, required: ["name"] } as const;
const SHOWN = { querystring: query({ done: line(20), user: line(200), role: line(20) }) };
const ADD = {
  querystring: query(),
  body: form(
    {
      name: line(200),
      role: line(20),
      locale: line(20),
      accounts: repeated(200, 200),
      account_names: typedText(TYPED_NAMES_MAX),
      all_accounts: line(4),
    },
    ["name", "role"],
  ),
};
const ROLE = { params: NAME_PARAM, querystring: query(), body: form({ role: line(20) }, ["role"]) };
const PLAIN = { params: NAME_PARAM, querystring: query(), body: form({ confirm: line(4) }) };
const LANGUAGE = { params: NAME_PARAM, querystring: query(), body: form({ locale: line(20) }, ["locale"]) };

/** A generated password: 120 random bits, 20 characters a person can copy. */
export function generatePassword(): string {
  return randomBytes(15).toString("base64url");
}

interface AddForm {
  name?: string;
  role?: string;
  locale?: string;
  accounts?: string[];
  account_names?: string;
  all_accounts?: string;
}

interface Shown {
  done?: string[];
  problems?: string[];
  once?: { name: string; password: string };
}

export const registerUserAdminPages: RegisterPages = (app, deps, kit) => {
  const admin = kit.requireRole("admin");
  const fleet = deps.accounts?.map((a) => a.name);

  const words = (request: FastifyRequest) => usersMessages(kit.i18n(request));
  /** The users the signed-in admin administers: read with each request, as their session is. */
  const scopeOf = async (request: FastifyRequest): Promise<AdminScope> =>
    fleet ? adminScope(await accountsOfUser(deps.db.sql, request.user.name), fleet) : null;
  /** The accounts of the file an admin of `scope` may give (none without an accounts file). */
  const offeredWithin = (scope: AdminScope) => fleet?.filter((a) => withinScope([a], scope)) ?? [];
  /** A role as the reader says it ("ellenőr"), for the sentences that name one. */
  const roleWord = (request: FastifyRequest, role: string) => {
    const i18n = kit.i18n(request);
    return role === "admin"
      ? i18n.t("role.admin")
      : role === "reviewer"
        ? i18n.t("role.reviewer")
        : role === "reader"
          ? i18n.t("role.reader")
          : role;
  };
  const show = async (request: FastifyRequest, reply: FastifyReply, shown: Shown, status = 200) => {
    const scope = await scopeOf(request);
    return kit.render(
      request,
      reply,
      "users-admin",
      {
        title: words(request).title,
        m: words(request),
        fill,
        users: await listConsoleUsers(deps.db.sql, deps.now(), scope),
        roles: CONSOLE_ROLES,
        fleet,
        // The accounts the add form offers: only those the admin may give.
        offered: offeredWithin(scope),
        checkboxesMax: ACCOUNT_CHECKBOXES_MAX,
        accountsNamed: ACCOUNTS_NAMED,
        typedNamesMax: TYPED_NAMES_MAX,
        scoped: scope !== null,
        done: shown.done ?? [],
        problems: shown.problems ?? [],
        once: shown.once ?? null,
      },
      status,
    );
  };
  const refuse = (request: FastifyRequest, reply: FastifyReply, problem: string, status = 400) =>
    show(request, reply, { problems: [problem] }, status);

  app.get<{ Querystring: { done?: string; user?: string; role?: string } }>(
    "/users",
    { schema: SHOWN, preHandler: admin },
    (request, reply) =>
      show(request, reply, {
        done: doneMessage(words(request), {
          ...request.query,
          role: request.query.role && roleWord(request, request.query.role),
        }),
      }),
  );

  app.post<{ Body: AddForm }>("/users/add", { schema: ADD, preHandler: admin }, async (request, reply) => {
    const M = words(request);
    const name = userName(request.body.name ?? "");
    const role = readRole(request.body.role);
    if (!USER_NAME.test(name)) return refuse(request, reply, fill(M.badName, { name }));
    if (!role) return refuse(request, reply, M.badRole);
    const choice = request.body.locale ?? "browser";
    const locale = readLanguageChoice(choice);
    if (locale === undefined)
      return refuse(request, reply, kit.i18n(request).t("error.language.message", { locale: choice }));
    const scope = await scopeOf(request);
    const { accounts: ticked, account_names: typed, all_accounts } = request.body;
    const accounts = givenAccounts({ ticked, typed, all: all_accounts === "yes" }, offeredWithin(scope));
    // Held first: an admin given some accounts learns no other account's name from the answer.
    // Sets, as thousands of names may be typed against a file of thousands.
    const held = scope === null ? null : new Set(scope);
    const notHeld = held && accounts.find((a) => !held.has(a));
    if (notHeld) return refuse(request, reply, fill(M.notYourAccount, { name: notHeld }), 403);
    const known = new Set(fleet);
    const unknown = accounts.find((a) => !known.has(a));
    if (unknown !== undefined) return refuse(request, reply, fill(M.unknownAccount, { name: unknown }));
    const password = generatePassword();
    const added = await addConsoleUser(deps.db.sql, {
      name,
      role,
      passwordHash: await hashPassword(password),
      locale,
      accounts,
    });
    if (!added) return refuse(request, reply, fill(M.taken, { name }), 409);
    deps.log.info({ user: request.user.name, added: name, role }, "console user added");
    return show(request, reply, {
      done: [fill(M.added, { name, role: roleWord(request, role) })],
      once: { name, password },
    });
  });

  app.post<{ Params: { name: string }; Body: { role?: string } }>(
    "/users/:name/role",
    { schema: ROLE, preHandler: admin },
    async (request, reply) => {
      const { name } = request.params;
      const role = readRole(request.body.role);
      if (!role) return refuse(request, reply, words(request).badRole);
      const outcome = await setConsoleRole(deps.db.sql, name, role, await scopeOf(request));
      if (outcome === "done" || outcome === "unchanged") {
        deps.log.info({ user: request.user.name, changed: name, role }, "console user role set");
        const done = outcome === "done" ? "role" : "role-unchanged";
        return reply.redirect(`/users?${new URLSearchParams({ done, user: name, role })}`, 303);
      }
      return refuseChange(request, reply, outcome, name);
    },
  );

  app.post<{ Params: { name: string } }>(
    "/users/:name/password",
    { schema: PLAIN, preHandler: admin },
    async (request, reply) => {
      const { name } = request.params;
      const password = generatePassword();
      const scope = await scopeOf(request);
      const changed = await setConsolePassword(deps.db.sql, name, await hashPassword(password), scope);
      if (changed !== "done") return refuseChange(request, reply, changed, name);
      const M = words(request);
      deps.log.info({ user: request.user.name, reset: name }, "console password reset");
      // An admin who resets their own password has ended their own session too: sign in again.
      if (name === request.user.name) reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return show(request, reply, { done: [fill(M.reset, { name })], once: { name, password } });
    },
  );

  app.post<{ Params: { name: string }; Body: { confirm?: string } }>(
    "/users/:name/remove",
    { schema: PLAIN, preHandler: admin },
    async (request, reply) => {
      const { name } = request.params;
      if (request.body.confirm !== "on")
        return refuse(request, reply, fill(words(request).confirmRemove, { name }));
      const outcome = await removeConsoleUserKeepingAdmin(deps.db.sql, name, await scopeOf(request));
      if (outcome !== "done") return refuseChange(request, reply, outcome, name);
      deps.log.info({ user: request.user.name, removed: name }, "console user removed");
      return reply.redirect(`/users?${new URLSearchParams({ done: "removed", user: name })}`, 303);
    },
  );

  // The language a user reads the console in (as `users set-locale`): hu, en, or the browser's.
  app.post<{ Params: { name: string }; Body: { locale: string } }>(
    "/users/:name/language",
    { schema: LANGUAGE, preHandler: admin },
    async (request, reply) => {
      const { name } = request.params;
      const choice = request.body.locale;
      const locale = readLanguageChoice(choice);
      if (locale === undefined)
        return refuse(request, reply, kit.i18n(request).t("error.language.message", { locale: choice }));
      const changed = await setConsoleLocale(deps.db.sql, name, locale, await scopeOf(request));
      if (changed !== "done") return refuseChange(request, reply, changed, name);
      deps.log.info({ user: request.user.name, changed: name, locale: choice }, "console user language set");
      return reply.redirect(`/users?${new URLSearchParams({ done: "language", user: name })}`, 303);
    },
  );

  function refuseChange(
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: AdminChange | "external",
    name: string,
  ) {
    const M = words(request);
    if (outcome === "external") return refuse(request, reply, fill(M.external, { name }), 400);
    if (outcome === "outside") return refuse(request, reply, fill(M.notYourUser, { name }), 403);
    return outcome === "last-admin"
      ? refuse(request, reply, fill(M.lastAdmin, { name }), 409)
      : refuse(request, reply, fill(M.noSuchUser, { name }), 404);
  }
};

/** A user's language as the forms choose it: hu, en, or `browser` (null: the browser's, else REGWATCH_LOCALE). */
function readLanguageChoice(choice: string): "hu" | "en" | null | undefined {
  if (choice === "browser") return null;
  return choice === "hu" || choice === "en" ? choice : undefined;
}

function readRole(value: unknown): ConsoleRole | null {
  return CONSOLE_ROLES.includes(value as ConsoleRole) ? (value as ConsoleRole) : null;
}

function doneMessage(M: UsersMessages, q: { done?: string; user?: string; role?: string }): string[] {
  const values = { name: q.user ?? "", role: q.role ?? "" };
  if (q.done === "language") return [fill(M.doneLanguage, values)];
  if (q.done === "role") return [fill(M.doneRole, values)];
  if (q.done === "role-unchanged") return [fill(M.doneRoleUnchanged, values)];
  if (q.done === "removed") return [fill(M.doneRemoved, values)];
  return [];
}
