/** Starts an emulator on an ephemeral port with a frozen clock and talks to it over real HTTP. */
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";

/** A Monday morning after the 06:00 load: the last loaded day is 2024-03-10. */
export const MORNING = "2024-03-11T08:00:00Z";

export interface Harness {
  emulator: RunningEmulator;
  /** Request with the valid key unless `headers` says otherwise; the body, when given, is JSON. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  json<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
}

export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({
    seed: 7,
    now: MORNING,
    frozenClock: true,
    rateLimit: 10_000,
    ...options,
  });
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    fetch(path.startsWith("http") ? path : `${emulator.url}${path}`, {
      method,
      headers: headers ?? { "x-api-key": emulator.apiKey, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
  return {
    emulator,
    call,
    json: async <T>(method: string, path: string, body?: unknown) => {
      const res = await call(method, path, body);
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
  };
}

export interface SearchPage {
  current_page: number;
  has_next: boolean;
  results: Array<Record<string, unknown>>;
}

export interface Bulk {
  success: string[];
  failed: Array<{ tax_id: string; code: number }>;
}

export interface ChangesBody {
  start_date: string;
  end_date: string;
  changed_items: Array<{
    change: string;
    tax_id: string;
    chapter: string;
    changed_headings: string[];
    path: string;
    change_type: string;
    heading_types: string[];
  }>;
}

/** Tax ids of businesses the watch service covers (everything but budget organisations). */
export function watchableTaxIds(emulator: RunningEmulator, count: number): string[] {
  return emulator
    .sampleBusinesses({ limit: count * 2 })
    .filter((b) => b.type !== "budget_orgs")
    .slice(0, count)
    .map((b) => String(b.tax_id));
}

export type ChangedItem = ChangesBody["changed_items"][number];

/** Every changed item of a list from `from` to `to`, asked a week at a time, in listing order. */
export async function changesBetween(
  h: Harness,
  listKey: string,
  from: string,
  to: string,
): Promise<ChangedItem[]> {
  const items: ChangedItem[] = [];
  for (let start = from; start <= to; start = addDays(start, 7)) {
    const end = addDays(start, 6) < to ? addDays(start, 6) : to;
    const res = await h.json<ChangesBody>(
      "GET",
      `/v2/lists/${listKey}/changes?start_date=${start}&end_date=${end}`,
    );
    if (res.status !== 200) throw new Error(`changes ${start}..${end}: ${res.status}`);
    items.push(...res.body.changed_items);
  }
  return items;
}

export interface ValueEntry {
  tax_id?: string;
  chapter?: string;
  heading: string;
  old_value: unknown;
  new_value: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * One day's entries of one heading in event order, read from the data alone: each one's old value
 * is the previous one's new value. Null when they do not form exactly one such chain.
 */
export function chainOfDay<T extends ValueEntry>(entries: readonly T[]): T[] | null {
  const starts = entries.filter((a) => !entries.some((b) => b !== a && same(b.new_value, a.old_value)));
  if (starts.length !== 1) return null;
  const chain = [starts[0]!];
  const left = entries.filter((e) => e !== starts[0]);
  while (left.length > 0) {
    const i = left.findIndex((e) => same(e.old_value, chain.at(-1)!.new_value));
    if (i < 0) return null;
    chain.push(...left.splice(i, 1));
  }
  return chain;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
