/**
 * The bundled registry emulator: a faithful twin of the registry's search (v1) and watch (v2)
 * interfaces for tests, the demo and benchmarks. Product code never imports it.
 *
 *   const emulator = await startEmulator({ seed: 7, now: "2024-03-01T08:00:00Z", frozenClock: true });
 *   // point clients at emulator.url with emulator.apiKey ... then:
 *   await emulator.close();
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ExplicitChange } from "./added-changes.ts";
import { searchRecord } from "./businesses.ts";
import { changedItem } from "./changes.ts";
import { SimulatedClock } from "./clock.ts";
import { FaultPlan, type FaultRule, faultRuleProblems } from "./faults.ts";
import { requestHandler, type Services } from "./http-server.ts";
import { MAX_BUSINESSES } from "./identifiers.ts";
import { MonthlyQuota, SlidingWindowLimiter } from "./limits.ts";
import { seedOf } from "./random.ts";
import { type ListSnapshot, Registry, type SeedList } from "./registry.ts";
import { RequestLog, type RequestLogEntry } from "./request-log.ts";
import { seedListProblems } from "./seed-lists.ts";
import { type Tenant, type TenantOptions, Tenants, tenantProblems, tenantSeed } from "./tenants.ts";
import { resolveWorld, type World, type WorldOptions, worldOptionProblems } from "./world.ts";

export type { ExplicitChange } from "./added-changes.ts";
export type { FaultRule, ListSnapshot, RequestLogEntry, SeedList, TenantOptions, World, WorldOptions };

/**
 * Options of an emulator. The world switches (`sharedFiles`, `sameDayChains`, `valueHistory`,
 * `currentRecords`, `realistic`) are described in world.ts; all are off by default.
 */
export interface EmulatorOptions extends WorldOptions {
  host?: string;
  /**
   * The origin clients reach the API at when it differs from the listening one (in a container
   * listening on 0.0.0.0, say): it is the `url` reported and the base of change-file links.
   */
  publicUrl?: string;
  port?: number;
  /** Serve change files from a second server (another origin) instead of the API's own. */
  separateFileOrigin?: boolean;
  filePort?: number;
  seed?: number | string;
  apiKey?: string;
  businesses?: number;
  /** Simulated time at start (ISO instant); default the real now. */
  now?: string;
  frozenClock?: boolean;
  rateLimit?: number;
  fileRateLimit?: number;
  latencyMs?: number;
  maxListSize?: number;
  totalCap?: number;
  searchMonthlyQuota?: number;
  changesFromParam?: string;
  changesToParam?: string;
  /**
   * Path prefix the API is served under, as behind a proxy (e.g. "/watch": the lists are then at
   * /watch/v2/lists, the description at /watch/v2/docs). Default none.
   */
  basePath?: string;
  /** Serve the watch interface's description (/v2/docs, /v2/openapi.json) as FastAPI does; default true. */
  describe?: boolean;
  changesPerBusinessPerMonth?: number;
  lists?: SeedList[];
  faults?: FaultRule[];
  /**
   * Several keys, each with a world of its own (seed, lists, changes) and its own rate-limit
   * count; instead of `apiKey`. The emulator's `seed`, `lists` and `apiKey` then serve no one.
   */
  tenants?: TenantOptions[];
}

/** One key's world on an emulator with tenants. */
export interface TenantView {
  apiKey: string;
  /** The request log's `tenant` for this key ("" on an emulator without tenants). */
  tag: string;
  /** Where this key's change files live (the emulator's file base and the key's tag). */
  fileBaseUrl: string;
  listsSnapshot(): ListSnapshot[];
  sampleBusinesses(filter?: { type?: string; limit?: number }): Array<Record<string, unknown>>;
  /** Creates a list with history in this key's world; answers it as `listsSnapshot` shows it. */
  seedList(list: SeedList): ListSnapshot;
  addChange(change: ExplicitChange): Record<string, unknown>;
}

export interface RunningEmulator {
  /** Origin serving /v1 and /v2, no trailing slash. */
  url: string;
  /** `url` and the base path: where /v1 and /v2 live (equal to `url` without a base path). */
  baseUrl: string;
  /** Absolute {changes_file_base_url}. */
  fileBaseUrl: string;
  /** The key (with tenants: the first tenant's key). */
  apiKey: string;
  /** Every key's world, in the order given (one, for an emulator without tenants). */
  tenants(): TenantView[];
  /** The world of one key; undefined for a key the emulator does not accept. */
  tenant(apiKey: string): TenantView | undefined;
  requests(): RequestLogEntry[];
  /** Resolves when the next request satisfying `test` arrives, before it is answered. */
  nextArrival(test: (entry: RequestLogEntry) => boolean): Promise<RequestLogEntry>;
  resetLog(): void;
  now(): Date;
  setClock(iso: string): void;
  advance(ms: number): void;
  setFaults(faults: FaultRule[]): void;
  listsSnapshot(): ListSnapshot[];
  sampleBusinesses(filter?: {
    type?: string;
    limit?: number;
    shared?: boolean;
  }): Array<Record<string, unknown>>;
  /** Adds a change with known content; answers its changed item as the changes endpoint lists it. */
  addChange(change: ExplicitChange): Record<string, unknown>;
  /** The world switches in force. */
  world(): World;
  /** Sets the switches given (the rest stay); every change and value is derived again. */
  setWorld(options: WorldOptions): World;
  close(): Promise<void>;
}

const DEFAULTS = {
  host: "127.0.0.1",
  port: 0,
  seed: 1,
  apiKey: "emulator-key",
  businesses: 5000,
  rateLimit: 30,
  fileRateLimit: 30,
  latencyMs: 0,
  maxListSize: 2000,
  totalCap: 100_000,
  searchMonthlyQuota: 2000,
  changesFromParam: "start_date",
  changesToParam: "end_date",
  basePath: "",
  describe: true,
  changesPerBusinessPerMonth: 3,
} as const satisfies Partial<EmulatorOptions>;

/** Every problem of the options, each naming the option. */
export function emulatorOptionProblems(options: EmulatorOptions): string[] {
  const problems: string[] = [];
  const positive = [
    "businesses",
    "rateLimit",
    "fileRateLimit",
    "maxListSize",
    "totalCap",
    "searchMonthlyQuota",
  ] as const;
  for (const name of positive) {
    const v = options[name];
    if (v !== undefined && !(Number.isInteger(v) && v > 0))
      problems.push(`${name} must be a positive integer`);
  }
  if (options.businesses !== undefined && options.businesses > MAX_BUSINESSES) {
    problems.push(`businesses must be at most ${MAX_BUSINESSES}`);
  }
  for (const name of ["port", "filePort", "latencyMs"] as const) {
    const v = options[name];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) problems.push(`${name} must be a whole number`);
  }
  const perMonth = options.changesPerBusinessPerMonth;
  if (perMonth !== undefined && !(perMonth >= 0 && perMonth <= 50)) {
    problems.push("changesPerBusinessPerMonth must be from 0 to 50");
  }
  if (
    options.basePath !== undefined &&
    options.basePath !== "" &&
    !/^(\/[A-Za-z0-9._~-]+)+$/.test(options.basePath)
  )
    problems.push("basePath must be empty or like /watch (segments, no trailing slash)");
  for (const name of ["changesFromParam", "changesToParam"] as const) {
    const v = options[name];
    if (v !== undefined && !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(v))
      problems.push(`${name} must be a parameter name`);
  }
  if (options.now !== undefined && Number.isNaN(Date.parse(options.now)))
    problems.push("now must be an ISO instant");
  if (options.faults !== undefined) problems.push(...faultRuleProblems(options.faults));
  problems.push(...worldOptionProblems(options as Record<string, unknown>));
  problems.push(...tenantProblems(options.tenants, options.apiKey !== undefined));
  problems.push(...seedListProblems(options.lists, "lists"));
  if (Array.isArray(options.tenants))
    options.tenants.forEach((t, i) => {
      problems.push(...seedListProblems((t as { lists?: unknown } | null)?.lists, `tenants[${i}].lists`));
    });
  return problems;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const problems = emulatorOptionProblems(options);
  if (problems.length > 0) throw new Error(`invalid emulator options: ${problems.join("; ")}`);
  const o = { ...DEFAULTS, ...options };
  const seed = seedOf(o.seed);
  const clock = new SimulatedClock(o.now, o.frozenClock ?? false);
  const world = resolveWorld(o);
  const registryOf = (worldSeed: number, apiKey: string) =>
    new Registry(
      worldSeed,
      o.businesses,
      o.changesPerBusinessPerMonth,
      { maxListSize: o.maxListSize, totalCap: o.totalCap },
      clock,
      {
        apiKey,
        rateLimit: o.rateLimit,
        fileRateLimit: o.fileRateLimit,
        latencyMs: o.latencyMs,
        searchMonthlyQuota: o.searchMonthlyQuota,
        changesFromParam: o.changesFromParam,
        changesToParam: o.changesToParam,
        basePath: o.basePath,
        describe: o.describe,
      },
      world,
    );
  const tenants = o.tenants
    ? new Tenants(
        o.tenants.map((t, i) => ({
          apiKey: t.apiKey,
          tag: `t${i + 1}`,
          registry: registryOf(seedOf(t.seed ?? tenantSeed(o.seed, i)), t.apiKey),
        })),
        true,
      )
    : new Tenants([{ apiKey: o.apiKey, tag: "", registry: registryOf(seed, o.apiKey) }], false);
  const registry = tenants.primary.registry;
  const listsOf = o.tenants ? o.tenants.map((t) => t.lists) : [o.lists];
  for (const [i, lists] of listsOf.entries()) seedLists(tenants.all[i]!.registry, lists);
  const services: Services = {
    registry,
    tenants,
    log: new RequestLog(),
    faults: new FaultPlan(seed, o.faults ?? []),
    limiter: new SlidingWindowLimiter(),
    quota: new MonthlyQuota(o.searchMonthlyQuota),
  };

  const separate = o.separateFileOrigin ?? false;
  const api = await listen(
    requestHandler(services, { origin: "api", servesApi: true, servesFiles: !separate }),
    o.host,
    o.port,
  );
  const files = separate
    ? await listen(
        requestHandler(services, { origin: "files", servesApi: false, servesFiles: true }),
        o.host,
        o.filePort ?? 0,
      )
    : null;
  const stoppers = tenants.all.map((t) => t.registry.warmNameIndex());
  const url = o.publicUrl ? new URL(o.publicUrl).origin : originOf(api, o.host);
  const fileBase = files ? `${originOf(files, o.host)}/files` : `${url}${o.basePath}/files`;
  for (const t of tenants.all) t.registry.fileBaseUrl = t.tag ? `${fileBase}/${t.tag}` : fileBase;

  return {
    url,
    baseUrl: `${url}${o.basePath}`,
    fileBaseUrl: registry.fileBaseUrl,
    apiKey: tenants.primary.apiKey,
    tenants: () => tenants.all.map(tenantView),
    tenant: (apiKey) => {
      const found = tenants.byKey(apiKey);
      return found ? tenantView(found) : undefined;
    },
    requests: () => services.log.list(),
    nextArrival: (test) => services.log.nextArrival(test),
    resetLog: () => services.log.reset(),
    now: () => clock.now(),
    setClock: (iso) => clock.set(iso),
    advance: (ms) => clock.advance(ms),
    setFaults: (faults) => services.faults.replace(faults),
    listsSnapshot: () => registry.snapshot(),
    sampleBusinesses: (filter) =>
      registry.sample(filter).map((b) => ({ tax_id: b.tax_id, ...searchRecord(registry.current(b)) })),
    addChange: (change) => changedItem(registry.addChange(change), registry.fileBaseUrl),
    world: () => registry.world(),
    setWorld: (world) => {
      const problems = worldOptionProblems(world as Record<string, unknown>);
      if (problems.length > 0) throw new Error(`invalid world switches: ${problems.join("; ")}`);
      const next = resolveWorld({ ...registry.world(), ...world });
      for (const t of tenants.all) t.registry.setWorld(next);
      return registry.world();
    },
    close: async () => {
      for (const stopWarming of stoppers) stopWarming();
      await Promise.all([stop(api), files ? stop(files) : Promise.resolve()]);
    },
  };
}

function seedLists(registry: Registry, lists: SeedList[] | undefined): void {
  for (const list of lists ?? []) registry.seedList(list);
}

function tenantView({ apiKey, tag, registry }: Tenant): TenantView {
  return {
    apiKey,
    tag,
    fileBaseUrl: registry.fileBaseUrl,
    listsSnapshot: () => registry.snapshot(),
    sampleBusinesses: (filter) =>
      registry.sample(filter).map((b) => ({ tax_id: b.tax_id, ...searchRecord(registry.current(b)) })),
    seedList: (list) => {
      const key = registry.seedList(list).list_key;
      return registry.snapshot().find((l) => l.list_key === key)!;
    },
    addChange: (change) => changedItem(registry.addChange(change), registry.fileBaseUrl),
  };
}

function listen(handler: Parameters<typeof createServer>[1], host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler!);
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

function originOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive connections would hold close() open until they time out.
    server.closeAllConnections();
  });
}
