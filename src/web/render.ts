/**
 * Server-side pages: eta templates under views/, each rendered into layout.eta. eta escapes every
 * `<%= %>` by default (autoEscape), so a value from the registry or a file is shown as text;
 * `<%~ %>` (raw) is used only for the layout's body, which eta itself produced.
 */
import { Eta } from "eta";
import type { FastifyReply, FastifyRequest } from "fastify";
import { SWITCH_SELECT_MAX } from "./account-search.ts";
import type { WebDeps } from "./kit.ts";
import { readerLocale } from "./locale.ts";
import { webAssetDir } from "./paths.ts";
import { templateLocals } from "./view-helpers.ts";

export type Renderer = (
  request: FastifyRequest,
  reply: FastifyReply,
  view: string,
  data: Record<string, unknown>,
  status?: number,
) => Promise<FastifyReply>;

export function createRenderer(deps: WebDeps): Renderer {
  const eta = new Eta({ views: webAssetDir("views"), cache: true, autoEscape: true, autoTrim: false });
  return async (request, reply, view, data, status = 200) => {
    // Times in the zone of the account shown (its own timezone, or REGWATCH_TZ), labelled;
    // words in the reader's language.
    const tz = (request.deps as WebDeps | undefined)?.config.tz ?? deps.config.tz;
    const locals = templateLocals(readerLocale(request, deps.config.locale), tz);
    const common = {
      user: request.webSession ? request.user : undefined,
      account: request.accountView,
      // Too many accounts for a select: the header offers a search among them (account-search.ts).
      accountFind: (request.accountView?.choices.length ?? 0) > SWITCH_SELECT_MAX,
      csrf: request.webSession?.csrfToken ?? "",
      // Every form that acts on an account's data carries the account it was shown for.
      formAccount: request.accountView?.current ?? "",
      path: request.url.split("?")[0],
      query: request.query ?? {},
      // The language switch returns to the page it was used on.
      here: request.url,
      ...locals,
    };
    const it = { ...common, ...data };
    const body = eta.render(`./${view}`, it);
    const page = eta.render("./layout", { ...it, body, title: data.title ?? "regwatch" });
    return reply.status(status).type("text/html; charset=utf-8").send(page);
  };
}
