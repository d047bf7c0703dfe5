/** Which endpoint a request addresses; its label names it in logs, statistics and fault rules. */

/** `docs`: the watch interface's description (FastAPI serves it without a key). */
export type Surface = "search" | "watch" | "files" | "docs";

export type Resolution =
  | { kind: "endpoint"; surface: Surface; endpoint: string; listKey?: string; filePath?: string }
  | { kind: "wrong-method"; surface: Surface; label: string; allow: string[] }
  | { kind: "not-found"; surface: Surface | null; label: string };

const SEARCH_PATHS = ["/v1/reg-numbers", "/v1/names", "/v1/bank-accounts"];
const DOCS_PATHS = ["/v2/docs", "/v2/openapi.json"];
const LIST_KEY = "[A-Za-z0-9_.~-]+";
const WATCH_PATTERNS: ReadonlyArray<readonly [RegExp, string, string[]]> = [
  [/^\/v2\/lists$/, "/v2/lists", ["GET", "POST"]],
  [new RegExp(`^/v2/lists/(${LIST_KEY})$`), "/v2/lists/:key", ["GET", "DELETE"]],
  [new RegExp(`^/v2/lists/(${LIST_KEY})/items$`), "/v2/lists/:key/items", ["GET", "POST", "DELETE"]],
  [new RegExp(`^/v2/lists/(${LIST_KEY})/changes$`), "/v2/lists/:key/changes", ["GET"]],
];

/** Resolves a path on the API origin (`servesFiles` when change files live there too) or the file origin. */
export function resolveRoute(
  method: string,
  path: string,
  servesFiles: boolean,
  servesApi: boolean,
  servesDocs = true,
): Resolution {
  if (servesFiles && (path === "/files" || path.startsWith("/files/"))) {
    if (method !== "GET")
      return { kind: "wrong-method", surface: "files", label: `${method} /files`, allow: ["GET"] };
    return {
      kind: "endpoint",
      surface: "files",
      endpoint: "GET /files",
      filePath: path.slice("/files/".length),
    };
  }
  if (servesApi && servesDocs && DOCS_PATHS.includes(path)) {
    if (method !== "GET")
      return { kind: "wrong-method", surface: "docs", label: `${method} ${path}`, allow: ["GET"] };
    return { kind: "endpoint", surface: "docs", endpoint: `GET ${path}` };
  }
  if (servesApi && SEARCH_PATHS.includes(path)) {
    if (method !== "GET")
      return { kind: "wrong-method", surface: "search", label: `${method} ${path}`, allow: ["GET"] };
    return { kind: "endpoint", surface: "search", endpoint: `GET ${path}` };
  }
  if (servesApi) {
    for (const [pattern, template, methods] of WATCH_PATTERNS) {
      const m = pattern.exec(path);
      if (!m) continue;
      const label = `${method} ${template}`;
      if (!methods.includes(method)) return { kind: "wrong-method", surface: "watch", label, allow: methods };
      return {
        kind: "endpoint",
        surface: "watch",
        endpoint: label,
        ...(m[1] ? { listKey: decodeURIComponent(m[1]) } : {}),
      };
    }
  }
  const surface =
    servesApi && path.startsWith("/v1/") ? "search" : servesApi && path.startsWith("/v2/") ? "watch" : null;
  return { kind: "not-found", surface, label: `${method} unknown` };
}
