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
