/**
 * The contract between the console's core (server, sign-in, layout) and its pages: what a page
 * module receives and may rely on. Every page module exports a `RegisterPages` function; the
 * server calls each one after the sign-in and CSRF hooks are in place, so no route can skip them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { Config } from "../config.ts";
import type { Database } from "../db/connect.ts";
import type { ConsoleRole } from "../db/console-users.ts";
import type { Logger } from "../logger.ts";

export type Role = ConsoleRole;

export interface WebUser {
  name: string;
  role: Role;
}

export interface WebDeps {
  db: Database;
  config: Config;
  /** The console's clock: session expiry, "new since yesterday", the day a page shows. Tests move it. */
  now: () => Date;
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
  /** For multipart forms (the payment upload): checks the _csrf field read from the multipart body. */
  verifyCsrf(request: FastifyRequest, token: string | undefined): boolean;
}

export type RegisterPages = (app: FastifyInstance, deps: WebDeps, kit: PageKit) => void | Promise<void>;

const RANK: Record<Role, number> = { reader: 0, reviewer: 1, admin: 2 };

/** Whether `role` may do what `needed` may. */
export function roleAtLeast(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/** What the sign-in hook knows about the request's session. */
export interface WebSession {
  /** SHA-256 of the cookie's token (the row's id). */
  id: string;
  csrfToken: string;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user; set by the global sign-in hook on every route but /login, /healthz and /static/*. */
    user: WebUser;
    /** The signed-in session; undefined on the routes the sign-in hook leaves alone. */
    webSession: WebSession | undefined;
  }
  interface FastifyContextConfig {
    /**
     * A multipart route: the global CSRF hook leaves it alone (the body is not parsed yet) and the
     * handler calls `kit.verifyCsrf` with the `_csrf` field before acting.
     */
    multipartCsrf?: boolean;
  }
}
