/**
 * The HTTP front of the emulator: for every request it applies, in order, the rate limit and
 * authentication, routing, the search quota, injected faults, the handler and the configured
 * latency, then logs what was sent. One handler serves the API origin and, when configured, a
 * second one serves change files from another origin.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { ADMIN_PREFIX, adminReply } from "./admin-routes.ts";
import { registryMonth } from "./clock.ts";
import { docsPage, openApiDocument } from "./description.ts";
import { type FaultPlan, type FaultRule, retryAfterHeader } from "./faults.ts";
import { fileReply } from "./file-routes.ts";
import type { MonthlyQuota, SlidingWindowLimiter } from "./limits.ts";
import type { Registry } from "./registry.ts";
import { failure, type Reply } from "./reply.ts";
import type { RequestLog, RequestLogEntry } from "./request-log.ts";
import { resolveRoute } from "./routes.ts";
import { searchReply } from "./search-routes.ts";
import type { Tenants } from "./tenants.ts";
import { watchReply } from "./watch-routes.ts";

export interface Services {
  /** The first key's world; its settings and clock are every key's. */
  registry: Registry;
  tenants: Tenants;
  log: RequestLog;
  faults: FaultPlan;
  limiter: SlidingWindowLimiter;
  quota: MonthlyQuota;
}

export interface OriginRole {
  origin: "api" | "files";
  servesApi: boolean;
  servesFiles: boolean;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
// Pieces a slow body is sent in, with the rule's pause between them.
const SLOW_CHUNKS = 5;

export function requestHandler(services: Services, role: OriginRole) {
  return (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res, services, role).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendReply(res, failure(500, error instanceof Error ? error.message : String(error)), null);
    });
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, services: Services, role: OriginRole) {
  const { registry, log } = services;
  const seq = log.arrival();
  const arrivedAt = Date.now();
  const simAt = registry.clock.now();
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  const method = req.method ?? "GET";
  const query = Object.fromEntries(url.searchParams);
  const body = await readBody(req);
  if (body === null) return void sendReply(res, failure(413, "request body too large"), null);

  if (role.servesApi && url.pathname.startsWith(ADMIN_PREFIX)) {
    const target = services.tenants.forAdmin(query.key);
    if (!target) return void sendReply(res, failure(404, "no tenant has that key"), null);
    const admin = { ...services, registry: target.registry };
    return void sendReply(res, adminReply(method, url.pathname, query, body, admin), null);
  }

  // Under a path prefix (a registry behind a proxy), the API's paths are the ones below it.
  const prefix = role.servesApi ? registry.settings.basePath : "";
  const path = !prefix
    ? url.pathname
    : url.pathname.startsWith(`${prefix}/`)
      ? url.pathname.slice(prefix.length)
      : `/outside-the-base-path${url.pathname}`;
  const route = resolveRoute(method, path, role.servesFiles, role.servesApi, registry.settings.describe);
  const key = header(req, "x-api-key");
  const tenant = services.tenants.byKey(key);
  const fileTarget =
    route.kind === "endpoint" && route.surface === "files"
      ? services.tenants.forFile(route.filePath ?? "")
      : null;
  const entry: RequestLogEntry = {
    seq,
    at: arrivedAt,
    simAt: simAt.toISOString(),
    origin: role.origin,
    method,
    path,
    query,
    endpoint:
      route.kind === "not-found" ? route.label : route.kind === "wrong-method" ? route.label : route.endpoint,
    status: 0,
    keyValid: tenant !== undefined,
  };
  if (key !== undefined) entry.key = key;
  // With many keys, the world that answers: the key's, or for a change file the one its path names.
  const owner = fileTarget?.tenant ?? tenant;
  if (services.tenants.tagged && owner) entry.tenant = owner.tag;
  const taxIds = bulkTaxIds(entry.endpoint, body);
  if (taxIds) entry.taxIds = taxIds;
  log.arrived(entry);

  const finish = async (reply: Reply, fault: FaultRule | null) => {
    if (registry.settings.latencyMs > 0) await sleep(registry.settings.latencyMs);
    entry.status = await sendReply(res, reply, fault);
    if (fault) entry.fault = fault.kind;
    log.record(entry);
  };

  const surface = route.surface;
  if (surface === null) return finish(failure(404, `no such path: ${url.pathname}`), null);

  // Arrivals are counted per key; key-less requests (change files) per client address.
  const client = req.socket.remoteAddress ?? "unknown";
  const isFileOrigin = role.origin === "files";
  // With many keys, a key-less file origin counts each key's files apart (the file rate is per key).
  const fileBucket =
    services.tenants.tagged && fileTarget ? `files:${fileTarget.tenant.tag}` : `files:${client}`;
  const bucket = isFileOrigin ? fileBucket : key ? `key:${key}` : `client:${client}`;
  const limit = isFileOrigin ? registry.settings.fileRateLimit : registry.settings.rateLimit;
  const waitSeconds = services.limiter.arrive(bucket, limit, arrivedAt);

  if (surface !== "files" && surface !== "docs" && !entry.keyValid) {
    return finish(failure(401, key ? "invalid API key" : "the X-Api-Key header is required"), null);
  }
  if (waitSeconds !== null) {
    const message = `rate limit of ${limit} requests per second exceeded`;
    return finish(failure(429, message, { "retry-after": String(waitSeconds) }), null);
  }
  if (route.kind === "wrong-method") {
    return finish(failure(405, `${method} is not allowed here`, { allow: route.allow.join(", ") }), null);
  }
  if (route.kind === "not-found") return finish(failure(404, `no such path: ${url.pathname}`), null);

  if (surface === "search" && !services.quota.take(key ?? "", registryMonth(simAt))) {
    const limitText = `monthly search quota of ${registry.settings.searchMonthlyQuota} requests is used up`;
    return finish(failure(429, limitText), null);
  }

  const fault = services.faults.draw(route.endpoint, `${method} ${url.pathname}${url.search}\n${body}`);
  if (fault?.kind === "status") {
    const headers = fault.retryAfter ? { "retry-after": retryAfterHeader(fault, Date.now()) } : undefined;
    return finish(failure(fault.status ?? 503, "injected fault", headers), fault);
  }
  if (fault?.kind === "rate-limit") {
    const headers = { "retry-after": retryAfterHeader(fault, Date.now()) };
    return finish(failure(429, "rate limit exceeded (injected)", headers), fault);
  }
  if (fault?.kind === "delay") await sleep(fault.delayMs ?? 1000);

  let reply: Reply;
  // Past the key check, a search or watch request has a tenant.
  const own = tenant?.registry ?? registry;
  if (surface === "search") reply = searchReply(route.endpoint, query, own);
  else if (surface === "docs") reply = docsReply(route.endpoint, registry);
  else if (surface === "watch") {
    const request = { endpoint: route.endpoint, query, body };
    reply = watchReply(route.listKey === undefined ? request : { ...request, listKey: route.listKey }, own);
  } else if (!fileTarget) reply = failure(404, "no such change file");
  else reply = fileReply(fileTarget.relative, fileTarget.tenant.registry);
  // A delay has been served already; the other kinds spoil the answer on its way out.
  return finish(reply, fault);
}

/** The description of the watch interface: the Swagger UI page or the OpenAPI document. */
function docsReply(endpoint: string, registry: Registry): Reply {
  const settings = registry.settings;
  if (endpoint === "GET /v2/docs")
    return { status: 200, text: { content: docsPage(settings), contentType: "text/html; charset=utf-8" } };
  return { status: 200, body: openApiDocument(settings) };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function bulkTaxIds(endpoint: string, body: string): string[] | undefined {
  if (!endpoint.endsWith("/v2/lists/:key/items") || endpoint.startsWith("GET")) return undefined;
  try {
    const taxIds: unknown = (JSON.parse(body) as { tax_ids?: unknown }).tax_ids;
    return Array.isArray(taxIds) ? taxIds.map(String) : undefined;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Sends a reply, spoiled as the fault says; resolves to the status sent (0 when the connection
 * was reset without an answer).
 */
async function sendReply(res: ServerResponse, reply: Reply, fault: FaultRule | null): Promise<number> {
  const text =
    reply.text?.content ??
    (reply.body === undefined || reply.status === 204 ? "" : JSON.stringify(reply.body));
  const bytes = Buffer.from(text, "utf8");
  const headers: Record<string, string | number> = { ...reply.headers };
  if (bytes.length > 0)
    headers["content-type"] = reply.text?.contentType ?? "application/json; charset=utf-8";
  switch (fault?.kind) {
    case "reset":
      res.socket?.destroy();
      return 0;
    case "malformed": {
      // Half of the real answer, which never parses as JSON, under a 200.
      const broken = bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2)));
      const body = broken.length > 0 && bytes.length > 0 ? broken : Buffer.from("{");
      res.writeHead(200, {
        ...headers,
        "content-type": "application/json; charset=utf-8",
        "content-length": body.length,
      });
      res.end(body);
      return 200;
    }
    case "truncate": {
      // Promise more than is sent, then hang up: the client sees a premature end of body.
      const declared = Math.max(bytes.length, 16);
      res.writeHead(reply.status, { ...headers, "content-length": declared });
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.destroy());
      return reply.status;
    }
    case "slow": {
      res.writeHead(reply.status, { ...headers, "content-length": bytes.length });
      const size = Math.ceil(bytes.length / SLOW_CHUNKS);
      for (let offset = 0; offset < bytes.length; offset += size) {
        if (offset > 0) await sleep(fault.delayMs ?? 200);
        if (res.destroyed) return reply.status;
        res.write(bytes.subarray(offset, offset + size));
      }
      res.end();
      return reply.status;
    }
    default:
      res.writeHead(reply.status, { ...headers, "content-length": bytes.length });
      res.end(bytes);
      return reply.status;
  }
}
