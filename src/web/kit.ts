/**
 * The contract between the console's core (server, sign-in, layout) and its pages: what a page
 * module receives and may rely on. Every page module exports a `RegisterPages` function; the
 * server calls each one after the sign-in and CSRF hooks are in place, so no route can skip them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { Account } from "../accounts.ts";
import type { Config } from "../config.ts";
import type { ConsoleRole } from "../console/users.ts";
import type { Database } from "../db/connect.ts";
import type { Translator } from "../i18n/messages.ts";
import type { Logger } from "../logger.ts";

export type Role = ConsoleRole;

export interface WebUser {
  name: string;
  role: Role;
  /** The language the user chose (en, hu), or null: the browser's, else REGWATCH_LOCALE. */
  locale: string | null;
}

export interface WebDeps {
  /**
   * Without an accounts file, the one database. With one, the fleet's home (schema `regwatch`):
   * users, sessions and who may see which account; each account's data is in its own Database.
   */
  db: Database;
  config: Config;
  /**
   * The accounts of the accounts file, when the caller has read it already; undefined: the
   * console reads `config.accountsFile` itself (no file: one account, as before accounts existed).
   */
  accounts?: readonly Account[];
  /** The console's clock: session expiry, "new since yesterday", the day a page shows. Tests move it. */
  now: () => Date;
  /** How long an account's pool is kept after its last request (fleet mode); 10 s when absent. */
  accountIdleMs?: number;
  log: Logger;
}

export interface PageKit {
  /** preHandler: 403 (rendered page) when the signed-in user's role is below `role`. */
  requireRole(role: Role): preHandlerAsyncHookHandler;
  /** Renders views/<view>.eta inside the layout (nav, user, csrf token available as `it.csrf`). */
  render(
    request: FastifyRequest,
    reply: FastifyReply,
    view: string,
    data: Record<string, unknown>,
    status?: number,
  ): Promise<FastifyReply>;
  /** The messages in the language of the request's reader (src/web/locale.ts decides which). */
  i18n(request: FastifyRequest): Translator;
  /** For multipart forms (the payment upload): checks the _csrf field read from the multipart body. */
  verifyCsrf(request: FastifyRequest, token: string | undefined): boolean;
  /**
   * For multipart forms: a 409 page when the form's `_account` field is not the account the
   * session shows (fleet mode), else undefined. URL-encoded forms are checked by the global hook.
   */
  refuseOtherAccount(
    request: FastifyRequest,
    reply: FastifyReply,
    given: unknown,
  ): Promise<FastifyReply> | undefined;
}

export type RegisterPages = (app: FastifyInstance, deps: WebDeps, kit: PageKit) => void | Promise<void>;

/**
 * Pages that show one account's data: they get no WebDeps of their own and read `request.deps`,
 * which the sign-in hook sets to the account the session shows (checked against the user's
 * accounts on every request), so no page can read an account its user was not given.
 */
export type RegisterAccountPages = (app: FastifyInstance, kit: PageKit) => void | Promise<void>;

const RANK: Record<Role, number> = { reader: 0, reviewer: 1, admin: 2 };

/** Whether `role` may do what `needed` may. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/** The account a request shows and the ones its user may switch to (fleet mode only). */
export interface AccountView {
  current: string;
  /** Every account the user was given and the accounts file lists, by name. */
  choices: string[];
}

/** What the sign-in hook knows about the request's session. */
export interface WebSession {
  /** SHA-256 of the cookie's token (the row's id). */
  id: string;
  csrfToken: string;
  /** Signed in through the company's identity provider: sign-out ends the provider's session too. */
  external: boolean;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user; set by the global sign-in hook on every route but /login, /healthz and /static/*. */
    user: WebUser;
    /** The signed-in session; undefined on the routes the sign-in hook leaves alone. */
    webSession: WebSession | undefined;
    /**
     * The database, configuration, clock and log of the account the request shows: the one
     * database without an accounts file. Set by the sign-in hook on every signed-in route.
     */
    deps: WebDeps;
    /** Fleet mode: the account shown and the user's others; undefined without an accounts file. */
    accountView: AccountView | undefined;
  }
  interface FastifyContextConfig {
    /**
     * A multipart route: the global CSRF hook leaves it alone (the body is not parsed yet) and the
     * handler calls `kit.verifyCsrf` with the `_csrf` field before acting.
     */
    multipartCsrf?: boolean;
  }
}
