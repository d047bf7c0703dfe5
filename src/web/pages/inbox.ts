/** `/`: the alert inbox. */
import type { RegisterPages } from "../kit.ts";

export const registerInboxPages: RegisterPages = (app, _deps, kit) => {
  app.get("/", (request, reply) => kit.render(request, reply, "inbox", { title: "Inbox", groups: [] }));
};
