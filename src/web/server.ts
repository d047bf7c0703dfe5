/**
 * The console's HTTP server: Fastify with its maintained plugins (cookies, form bodies, security
 * headers, static files, multipart uploads), then the sign-in and CSRF hooks, then the pages.
 * `startConsole` listens; `buildConsole` only assembles, for callers that listen themselves.
 * With an accounts file (`deps.accounts`, else read from `deps.config`), `deps.db` is the fleet's
 * home and each account's pages come from that account's own Database, opened on first use and
 * closed with the server.
 */
import type { AddressInfo } from "node:net";
import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import fastifyHelmet from "@fastify/helmet";
import fastifyMultipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance } from "fastify";
import { loadAccounts } from "../accounts.ts";
import { listenError } from "../listen-error.ts";
import { AccountDirectory, SchemaBehindError } from "./account-directory.ts";
import { createKit, installAuthHooks } from "./auth.ts";
import type { WebDeps } from "./kit.ts";
import { registerLanguageSwitch } from "./locale.ts";
import { registerAccountSwitch } from "./pages/account.ts";
import { registerAlertPages } from "./pages/alert.ts";
import { registerInboxPages } from "./pages/inbox.ts";
import { registerLoginPages } from "./pages/login.ts";
import { registerMorePages } from "./pages/more.ts";
import { registerUserAdminPages } from "./pages/users-admin.ts";
import { webAssetDir } from "./paths.ts";
import { createRenderer } from "./render.ts";
import { describeSchemaError, PLAIN_GET } from "./route-schemas.ts";
import { answerClientError, answerFrameworkError, helmetOptions } from "./security-headers.ts";

/** Largest payment batch an upload may carry. */
const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** A route parameter's longest raw form (Fastify's default is 100: too short for a 200-character name). */
const MAX_PARAM_LENGTH = 4096;

/**
 * How long the console waits on a client. A request (headers and body) must arrive within
 * `requestMs`, its headers within `headersMs`; Node looks for late ones every `checkEveryMs` and
 * answers them 408 before closing, so a body trickled a byte at a time is cut off within
 * requestMs + checkEveryMs. A connection with no traffic either way for `idleMs` is closed (a
 * download whose reader stopped reading, say); an idle keep-alive connection after `keepAliveMs`.
 */
export interface ConsoleTimeouts {
  headersMs: number;
  requestMs: number;
  checkEveryMs: number;
  idleMs: number;
  keepAliveMs: number;
}

export const CONSOLE_TIMEOUTS = {
  headersMs: 20_000,
  // A 100 MB upload needs about 18 Mbit/s to arrive in time; a form needs a few bytes.
  requestMs: 45_000,
  checkEveryMs: 5_000,
  idleMs: 120_000,
  keepAliveMs: 5_000,
} as const satisfies ConsoleTimeouts;

export interface ConsoleOptions {
  /** Tests shorten these; the defaults are CONSOLE_TIMEOUTS. */
  timeouts?: Partial<ConsoleTimeouts>;
}

export async function buildConsole(deps: WebDeps, options: ConsoleOptions = {}): Promise<FastifyInstance> {
  const fleet = deps.accounts ?? loadAccounts(deps.config);
  const accounts = fleet ? new AccountDirectory(deps.config, fleet, deps.accountIdleMs) : undefined;
  const timeouts = { ...CONSOLE_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    // The console logs through regwatch's own logger (secrets scrubbed), never request bodies.
    logger: false,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
    },
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // A form (a note, a few hundred selected ids) is small; the upload goes through multipart.
    bodyLimit: 1024 * 1024,
    // Only behind a proxy that sets them are X-Forwarded-For/-Proto believed: else anyone could
    // name a new address with each attempt and never meet the sign-in limit.
    trustProxy: deps.config.webTrustProxy,
    // A bookmarked /changes/ opens /changes. A rule or list name (at most 200 characters) is at
    // most 1,800 once percent-encoded; a longer parameter is a 414 with the security headers.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Every route states what it accepts (route-schemas.ts); a refusal names the field.
    schemaErrorFormatter: describeSchemaError,
  });
  const issuer = deps.config.oidc?.issuer;
  await app.register(fastifyHelmet, helmetOptions(issuer ? [new URL(issuer).origin] : []));
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024 },
  });
  await app.register(fastifyStatic, {
    root: webAssetDir("static"),
    prefix: "/static/",
    index: false,
    maxAge: 3_600_000,
  });

  // From here on, a route without a schema is a mistake caught at start, not a 500 in use.
  app.addHook("onRoute", (route) => {
    if (!route.schema) throw new Error(`console route ${route.method} ${route.url} declares no schema`);
  });

  const render = createRenderer(deps);
  const kit = createKit(render, deps);

  // Pages show a person's own data: no shared cache keeps them.
  app.addHook("onSend", async (request, reply) => {
    if (!request.url.startsWith("/static/")) reply.header("cache-control", "no-store");
  });
  app.setErrorHandler(async (thrown, request, reply) => {
    const error = thrown instanceof Error ? thrown : new Error(String(thrown));
    const status = (thrown as { statusCode?: number }).statusCode ?? 500;
    const i18n = kit.i18n(request);
    if (thrown instanceof SchemaBehindError) {
      const title = i18n.t("error.schemaBehind.title");
      return render(request, reply, "error", { title, message: thrown.message }, status);
    }
    if (status >= 500) {
      deps.log.error({ err: error.message, url: request.url.split("?")[0] }, "console page failed");
      const page = { title: i18n.t("error.failed.title"), message: i18n.t("error.failed.message") };
      return render(request, reply, "error", page, status);
    }
    const page = { title: i18n.t("error.refused.title"), message: error.message };
    return render(request, reply, "error", page, status);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const i18n = kit.i18n(request);
    const path = request.url.split("?")[0];
    const page = {
      title: i18n.t("error.notFound.title"),
      message: i18n.t("error.notFound.message", { path }),
    };
    return render(request, reply, "error", page, 404);
  });

  app.get("/healthz", { schema: PLAIN_GET }, async (_request, reply) =>
    reply.type("text/plain; charset=utf-8").send("ok\n"),
  );
  if (accounts) app.addHook("onClose", () => accounts.close());
  installAuthHooks(app, deps, render, accounts);
  // The home's pages: sign-in, users, the account switch. They never read an account's data.
  const home: WebDeps = { ...deps, accounts: fleet };
  await registerLoginPages(app, home, kit);
  await registerLanguageSwitch(app, home, kit);
  await registerUserAdminPages(app, home, kit);
  if (accounts) await registerAccountSwitch(app, home, kit);
  // The account's pages: each reads `request.deps`, the account the session shows.
  await registerInboxPages(app, kit, home);
  await registerAlertPages(app, kit);
  await registerMorePages(app, kit);
  return app;
}

export interface RunningConsole {
  app: FastifyInstance;
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function startConsole(
  deps: WebDeps,
  listen: { host: string; port: number; portOption?: string },
  options: ConsoleOptions = {},
): Promise<RunningConsole> {
  const app = await buildConsole(deps, options);
  try {
    await app.listen({ host: listen.host, port: listen.port });
  } catch (error) {
    await app.close();
    throw listenError(error, {
      service: "the web console",
      ...listen,
      portVariable: "REGWATCH_WEB_PORT",
      hostVariable: "REGWATCH_WEB_HOST",
      ...(listen.portOption ? { portOption: listen.portOption } : {}),
    });
  }
  const { port } = app.server.address() as AddressInfo;
  const host = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
  return { app, port, url: `http://${host}:${port}`, close: () => app.close() };
}
