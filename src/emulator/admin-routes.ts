/**
 * Routes under /_emulator/ for tests, the demo and benchmarks: the request log and counts, the
 * clock, lists with history, explicit changes, fault rules and sample businesses. They are not
 * part of the registry, need no API key and are not logged.
 */
import { searchRecord } from "./businesses.ts";
import { changedItem } from "./changes.ts";
import { lastLoadedDay } from "./clock.ts";
import type { FaultPlan, FaultRule } from "./faults.ts";
import type { ExplicitChange, Registry, SeedList } from "./registry.ts";
import { failure, json, type Reply } from "./reply.ts";
import type { RequestLog } from "./request-log.ts";
import { resolveWorld, WORLD_SWITCHES, type WorldOptions, worldOptionProblems } from "./world.ts";

export interface AdminTargets {
  registry: Registry;
  log: RequestLog;
  faults: FaultPlan;
}

export const ADMIN_PREFIX = "/_emulator/";

export function adminReply(
  method: string,
  path: string,
  query: Record<string, string>,
  body: string,
  { registry, log, faults }: AdminTargets,
): Reply {
  const route = `${method} ${path.slice(ADMIN_PREFIX.length)}`;
  const needsBody = method === "POST" && route !== "POST reset-log";
  const parsed = needsBody ? parseAdminBody(body) : {};
  if (typeof parsed === "string") return failure(400, parsed);
  try {
    switch (route) {
      case "GET requests":
        return json(200, log.list());
      case "GET stats":
        return json(200, log.stats());
      case "POST reset-log":
        log.reset();
        return { status: 204 };
      case "POST clock":
        return clockUpdate(parsed as Record<string, unknown>, registry);
      case "GET clock":
        return json(200, clockView(registry));
      case "GET lists":
        return json(200, registry.snapshot());
      case "POST lists": {
        const list = registry.seedList(parsed as unknown as SeedList);
        return json(
          201,
          registry.snapshot().find((l) => l.list_key === list.list_key),
        );
      }
      case "POST changes": {
        const change = registry.addChange(parsed as unknown as ExplicitChange);
        return json(201, changedItem(change, registry.fileBaseUrl));
      }
      case "GET world":
        return json(200, registry.world());
      case "POST world":
        return worldUpdate(parsed as Record<string, unknown>, registry);
      case "GET faults":
        return json(200, faults.current());
      case "POST faults": {
        const rules = Array.isArray(parsed) ? parsed : (parsed as { faults?: unknown }).faults;
        faults.replace(rules as FaultRule[]);
        return json(200, faults.current());
      }
      case "GET businesses": {
        const limit = query.limit === undefined ? undefined : Number(query.limit);
        if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
          return failure(400, "limit must be a positive integer");
        }
        const found = registry.sample({
          ...(query.type ? { type: query.type } : {}),
          ...(limit ? { limit } : {}),
          shared: query.shared === "true" || query.shared === "1",
        });
        return json(
          200,
          found.map((b) => ({ tax_id: b.tax_id, ...searchRecord(registry.current(b)) })),
        );
      }
      default:
        return failure(404, `no admin route ${route}`);
    }
  } catch (error) {
    return failure(400, error instanceof Error ? error.message : String(error));
  }
}

function parseAdminBody(body: string): Record<string, unknown> | unknown[] | string {
  try {
    const value: unknown = JSON.parse(body || "{}");
    if (typeof value === "object" && value !== null) return value as Record<string, unknown> | unknown[];
  } catch {
    // reported below
  }
  return "the body must be a JSON object or array";
}

/** Switches given are set, the others kept; `realistic: true` sets them all. */
function worldUpdate(body: Record<string, unknown>, registry: Registry): Reply {
  if (Array.isArray(body)) return failure(400, "the body must be a JSON object");
  const unknown = Object.keys(body).filter(
    (k) => k !== "realistic" && !(WORLD_SWITCHES as readonly string[]).includes(k),
  );
  const problems = [...unknown.map((k) => `unknown switch ${k}`), ...worldOptionProblems(body)];
  if (problems.length > 0) return failure(400, problems.join("; "));
  registry.setWorld(resolveWorld({ ...registry.world(), ...(body as WorldOptions) }));
  return json(200, registry.world());
}

function clockView(registry: Registry) {
  const now = registry.clock.now();
  return { now: now.toISOString(), frozen: registry.clock.isFrozen(), lastLoadedDay: lastLoadedDay(now) };
}

function clockUpdate(body: Record<string, unknown>, registry: Registry): Reply {
  const { now, advanceMs, frozen } = body;
  if (now === undefined && advanceMs === undefined && frozen === undefined) {
    return failure(400, "give now (ISO instant), advanceMs (number) or frozen (boolean)");
  }
  if (frozen !== undefined) {
    if (typeof frozen !== "boolean") return failure(400, "frozen must be a boolean");
    registry.clock.freeze(frozen);
  }
  if (now !== undefined) registry.clock.set(String(now));
  if (advanceMs !== undefined) registry.clock.advance(Number(advanceMs));
  return json(200, clockView(registry));
}
