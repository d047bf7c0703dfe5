/**
 * A registry double that misbehaves on purpose, over real HTTP. Each test chooses the answers:
 * the lists, the changes answer for each asked interval, and each change file. Unlike the bundled
 * emulator it will claim intervals it was not asked, send impossible dates, echo the key, or stall.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Never answer (the request hangs until the client gives up or the server closes). */
  hang?: boolean;
}

export interface ChangesQuery {
  listKey: string;
  from: string;
  to: string;
  apiKey: string | undefined;
}

export interface HostileOptions {
  lists?: { list_key: string; list_name: string; created_at: string }[];
  changes?: (query: ChangesQuery) => Answer | Promise<Answer>;
  file?: (path: string, request: IncomingMessage) => Answer | Promise<Answer>;
}

export interface HostileRegistry {
  url: string;
  /** Asked intervals of the changes endpoint, in order. */
  asked: { listKey: string; from: string; to: string }[];
  set(options: HostileOptions): void;
  close(): Promise<void>;
}

export function json(body: unknown, status = 200): Answer {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

/** A changes answer claiming the given interval with the given items. */
export function changesAnswer(start: string, end: string, items: unknown[]): Answer {
  return json({ start_date: start, end_date: end, changed_items: items });
}

export async function startHostileRegistry(initial: HostileOptions = {}): Promise<HostileRegistry> {
  let options = initial;
  const asked: HostileRegistry["asked"] = [];
  const hanging = new Set<ServerResponse>();
  const send = (response: ServerResponse, answer: Answer) => {
    if (answer.hang) {
      hanging.add(response);
      return;
    }
    response.writeHead(answer.status ?? 200, answer.headers ?? { "content-type": "application/json" });
    response.end(answer.body ?? "");
  };
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://localhost");
      const apiKey = request.headers["x-api-key"] ?? request.headers.authorization;
      if (url.pathname === "/v2/lists" && request.method === "GET") {
        return send(response, json({ watch_lists: options.lists ?? [] }));
      }
      const match = /^\/v2\/lists\/([^/]+)\/changes$/.exec(url.pathname);
      if (match && options.changes) {
        const query = {
          listKey: decodeURIComponent(match[1]!),
          from: url.searchParams.get("start_date") ?? "",
          to: url.searchParams.get("end_date") ?? "",
        };
        asked.push(query);
        return send(response, await options.changes({ ...query, apiKey: String(apiKey ?? "") }));
      }
      if (url.pathname.startsWith("/files/") && options.file) {
        return send(response, await options.file(url.pathname, request));
      }
      send(response, json({ error: "not found" }, 404));
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    set(next) {
      options = { ...options, ...next };
    },
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Environment pointing regwatch at a hostile registry. */
export function hostileEnv(
  registry: HostileRegistry,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    REGWATCH_WATCH_URL: registry.url,
    REGWATCH_SEARCH_URL: registry.url,
    REGWATCH_API_KEY: HOSTILE_KEY,
    REGWATCH_FILE_ORIGINS: registry.url,
    REGWATCH_TZ: "Europe/Budapest",
    REGWATCH_RATE_LIMIT: "100",
    REGWATCH_RETRY_BASE_MS: "10",
    REGWATCH_MAX_ATTEMPTS: "2",
    REGWATCH_CONCURRENCY: "4",
    REGWATCH_START_DATE: "2024-03-01",
    ...extra,
  };
}

/** The key the hostile registry is given; tests grep every sink for it. */
export const HOSTILE_KEY = "hk_live_5ecret-0f-the-hostile-test";

/**
 * A changes answer that lists, on `day` only, one `long_name` change of each business with its
 * own file at `{base()}/files/{name}.json` (base read late: the registry's address is known
 * once it listens).
 */
export function oneDayOfFiles(day: string, taxIds: Record<string, string>, base: () => string) {
  return (q: ChangesQuery): Answer =>
    changesAnswer(
      q.from,
      q.to,
      q.from <= day && day <= q.to
        ? Object.entries(taxIds).map(([name, taxId]) => ({
            change: day,
            tax_id: taxId,
            chapter: "1",
            changed_headings: ["long_name"],
            path: `${base()}/files/${name}.json`,
          }))
        : [],
    );
}

/** One well-formed changed item whose file lives on `base`. */
export function item(base: string, taxId: string, change: string, extra: Record<string, unknown> = {}) {
  return {
    change,
    tax_id: taxId,
    chapter: "2",
    changed_headings: ["name"],
    path: `${base}/files/${taxId}-${change}.json`,
    ...extra,
  };
}
