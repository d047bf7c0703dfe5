/**
 * `/users` (admins only): who may sign in, with their role, open sessions and (with an accounts
 * file) accounts. Read-only: users are added, changed, given accounts and removed with
 * `regwatch users`, where a password never crosses a form.
 */
import { listConsoleUsers } from "../../db/console-users.ts";
import type { RegisterPages } from "../kit.ts";
import { PLAIN_GET } from "../route-schemas.ts";

export const registerUserPages: RegisterPages = (app, deps, kit) => {
  app.get("/users", { schema: PLAIN_GET, preHandler: kit.requireRole("admin") }, async (request, reply) =>
    kit.render(request, reply, "users", {
      title: kit.i18n(request).t("users.title"),
      users: await listConsoleUsers(deps.db.sql, deps.now()),
      // With an accounts file: each user's accounts, and the accounts the file lists.
      fleet: deps.accounts?.map((a) => a.name),
    }),
  );
};
