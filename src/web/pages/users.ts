/**
 * `/users` (admins only): who may sign in, with their role and open sessions. Read-only: users
 * are added, changed and removed with `regwatch users`, where a password never crosses a form.
 */
import { listConsoleUsers } from "../../db/console-users.ts";
import type { RegisterPages } from "../kit.ts";

export const registerUserPages: RegisterPages = (app, deps, kit) => {
  app.get("/users", { preHandler: kit.requireRole("admin") }, async (request, reply) =>
    kit.render(request, reply, "users", {
      title: "Users",
      users: await listConsoleUsers(deps.db.sql, deps.now()),
    }),
  );
};
