/**
 * The fleet bench's figures from the emulator's request log, pure: per key, how many requests,
 * their mean rate over the key's busy span and the most that arrived in any one second (the
 * emulator's own window: an arrival and those of the 1,000 ms before it, the first excluded).
 */
import type { RequestLogEntry } from "../src/emulator/index.ts";

export interface KeyRate {
  /** The world's tag in the request log (t1, t2, ...). */
  tenant: string;
  requests: number;
  refused: number;
  /** Requests over the span from the key's first to its last arrival, per second. */
  meanRps: number;
  /** Most arrivals in any window of one second. */
  maxRps: number;
}

export function keyRates(log: readonly RequestLogEntry[]): KeyRate[] {
  const byTenant = new Map<string, RequestLogEntry[]>();
  for (const entry of log) {
    if (entry.tenant === undefined) continue;
    const list = byTenant.get(entry.tenant) ?? [];
    list.push(entry);
    byTenant.set(entry.tenant, list);
  }
  return [...byTenant.entries()]
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .map(([tenant, entries]) => {
      const times = entries.map((e) => e.at).sort((a, b) => a - b);
      const span = (times.at(-1)! - times[0]!) / 1000;
      return {
        tenant,
        requests: entries.length,
        refused: entries.filter((e) => e.status === 429).length,
        meanRps: span > 0 ? entries.length / span : entries.length,
        maxRps: maxInOneSecond(times),
      };
    });
}

/** Most of the sorted arrival times within (t - 1000, t] for any arrival t. */
export function maxInOneSecond(sortedMs: readonly number[]): number {
  let best = 0;
  let first = 0;
  for (let i = 0; i < sortedMs.length; i++) {
    while (sortedMs[first]! <= sortedMs[i]! - 1000) first++;
    best = Math.max(best, i - first + 1);
  }
  return best;
}

/** Summary of one round for the printed table. */
export function roundSummary(rates: readonly KeyRate[]): {
  requests: number;
  refused: number;
  meanRps: number;
  maxRps: number;
} {
  const requests = rates.reduce((n, r) => n + r.requests, 0);
  return {
    requests,
    refused: rates.reduce((n, r) => n + r.refused, 0),
    meanRps: rates.length > 0 ? rates.reduce((n, r) => n + r.meanRps, 0) / rates.length : 0,
    maxRps: Math.max(0, ...rates.map((r) => r.maxRps)),
  };
}
