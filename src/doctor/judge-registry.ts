/**
 * What the registry's answers mean for a setup: the watch key (a list read), the registry's clock
 * against ours, and the search interface (reached, never asked) with its quota. Pure: each takes what was observed and
 * returns one line of the report.
 */
import { describeBody } from "../api/errors.ts";
import { listsResponseSchema } from "../api/watch-schemas.ts";
import type { Reach } from "./probe-alerts.ts";
import type { Probe, ProbeAnswer } from "./probe-http.ts";
import { type CheckResult, fail, ok, warn } from "./report.ts";

export const WATCH_KEY = "watch key";
export const CLOCK = "clock";
export const SEARCH = "search interface";
export const SEARCH_QUOTA = "search quota";

const ADDRESS_HINT =
  "check REGWATCH_WATCH_URL: the address the provider gives as {watch_base_url} (with or without /v2)";
const REACH_HINT = "check the address and that this machine reaches it (DNS, firewall, proxy)";

export type WatchKeyVerdict = "accepted" | "refused" | "unknown";

/** What the list read says of the key itself, apart from the address or the server's health. */
export function watchKeyVerdict(probe: Probe | undefined): WatchKeyVerdict {
  if (probe?.kind !== "answered") return "unknown";
  const { status } = probe.answer;
  return status === 200 ? "accepted" : status === 401 || status === 403 ? "refused" : "unknown";
}

/** The watch key as a read of the list of lists judged it (undefined: not configured). */
export function judgeWatchRead(probe: Probe | undefined, hasClientId: boolean): CheckResult {
  if (!probe)
    return fail(
      WATCH_KEY,
      "not checked: the watch interface is not configured",
      "set REGWATCH_WATCH_URL and REGWATCH_API_KEY",
    );
  if (probe.kind === "failed") {
    if (probe.error.code === "RETRY_AFTER_TOO_LONG" || probe.error.code === "HTTP_RATE_LIMITED")
      return warn(
        WATCH_KEY,
        `not judged: ${probe.error.message}`,
        "run doctor again when no other process uses the key",
      );
    return fail(WATCH_KEY, `the watch interface did not answer: ${probe.error.message}`, REACH_HINT);
  }
  const { status, body } = probe.answer;
  const detail = status === 200 ? "" : bodyDetail(body);
  const refusedNext =
    "set REGWATCH_API_KEY to the key issued for this environment (test and production keys differ)" +
    (hasClientId ? ", and REGWATCH_CLIENT_ID to the client id issued with it" : "");
  if (status === 401)
    return fail(WATCH_KEY, `the registry refused the key: GET /v2/lists answered 401${detail}`, refusedNext);
  if (status === 403) {
    return fail(
      WATCH_KEY,
      `the registry refused the key: GET /v2/lists answered 403 (a known key without access here: an expired contract, or a key of the other environment)${detail}`,
      "ask the provider to enable the watch interface for this key, or use this environment's key",
    );
  }
  if (status === 404)
    return fail(
      WATCH_KEY,
      `no watch interface at this address: GET /v2/lists answered 404${detail}`,
      ADDRESS_HINT,
    );
  if (status === 429)
    return warn(
      WATCH_KEY,
      `not judged: the registry answered 429 (rate limited)${detail}`,
      "run doctor again when no other process uses the key",
    );
  if (status >= 500)
    return fail(
      WATCH_KEY,
      `the registry answered ${status}${detail}`,
      "try again later; if it lasts, tell the provider",
    );
  if (status !== 200) return fail(WATCH_KEY, `GET /v2/lists answered ${status}${detail}`, ADDRESS_HINT);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const lists = listsResponseSchema.safeParse(parsed);
  if (!lists.success)
    return fail(WATCH_KEY, "GET /v2/lists answered 200 but not with a list of watch lists", ADDRESS_HINT);
  const total = lists.data.total_watch_count;
  return ok(
    WATCH_KEY,
    `the key was accepted: ${lists.data.watch_lists.length} watch list(s)${total == null ? "" : `, ${total} watched item(s)`}`,
  );
}

/** Skew bounds: a few minutes is a drifting clock; a quarter of an hour moves the day's boundary. */
export const CLOCK_WARN_MS = 2 * 60_000;
export const CLOCK_FAIL_MS = 15 * 60_000;

/**
 * The registry's clock (its Date header) against ours, at the middle of the exchange. Ours
 * decides which day is complete and when the schedule fires, so a wrong one asks for a day too
 * early or too late.
 */
export function judgeClock(probe: Probe | undefined): CheckResult {
  if (!probe || probe.kind === "failed")
    return warn(CLOCK, "not compared: the watch interface did not answer", "see the watch key line");
  const date = headerText(probe.answer, "date");
  const serverMs = date === undefined ? Number.NaN : Date.parse(date);
  if (Number.isNaN(serverMs))
    return warn(
      CLOCK,
      "not compared: the registry's answer had no readable Date header",
      "make sure this machine's clock is synchronised (NTP)",
    );
  const oursMs = (probe.answer.sentAt + probe.answer.answeredAt) / 2;
  // The header has whole seconds: half a second either way is no skew.
  const skewMs = oursMs - serverMs;
  const size = Math.abs(skewMs);
  const words = `ours is ${describeDuration(size)} ${skewMs > 0 ? "ahead of" : "behind"} the registry's`;
  const next =
    "synchronise this machine's clock (NTP, e.g. `timedatectl set-ntp true`): it decides which day is complete and when the schedule fires";
  if (size > CLOCK_FAIL_MS) return fail(CLOCK, `${words} (more than 15 minutes)`, next);
  if (size > CLOCK_WARN_MS) return warn(CLOCK, `${words} (more than 2 minutes)`, next);
  return ok(CLOCK, `the registry's clock and ours agree within ${describeDuration(Math.max(size, 1000))}`);
}

export interface SearchObservation {
  configured: boolean;
  /** A connection to the search address, closed before any request (undefined when not configured). */
  reach: Reach | undefined;
  /** REGWATCH_SEARCH_API_KEY is unset or equal to REGWATCH_API_KEY. */
  sameKeyAsWatch: boolean;
  /** How the watch interface took that key, when it is the same one. */
  watchKey: WatchKeyVerdict;
}

/** Why the doctor sends the search interface no request at all. */
export const SEARCH_NOT_ASKED =
  "no search request was sent: the registry counts every search request toward the monthly quota and documents none that is free, and a request without the key is use outside its contract";

/**
 * The search interface, checked without a request: with the key every one costs quota, and
 * without it the registry may restrict the client. Its address is shown to take a connection
 * (TLS handshake for https), closed before a byte of HTTP; the key is vouched for by the watch
 * interface when it is the same key.
 */
export function judgeSearch(o: SearchObservation): CheckResult {
  if (!o.configured) {
    return warn(
      SEARCH,
      "REGWATCH_SEARCH_URL is not set: lookup, watch add by registration number and payments check --online cannot run (the daily run does not need it)",
      "set REGWATCH_SEARCH_URL (and REGWATCH_SEARCH_API_KEY when the search key differs from the watch key)",
    );
  }
  const reach = o.reach;
  if (!reach?.reached) {
    return fail(
      SEARCH,
      `the search interface's address took no connection: ${reach?.message ?? "not tried"}; ${SEARCH_NOT_ASKED}`,
      REACH_HINT,
    );
  }
  const answered = `the address took a connection (${reach.detail}), closed before any request; ${SEARCH_NOT_ASKED}`;
  if (o.sameKeyAsWatch) {
    if (o.watchKey === "refused") {
      return fail(
        SEARCH,
        `${answered}; its key is the watch key, which the registry refused`,
        "see the watch key line",
      );
    }
    const vouched = o.watchKey === "accepted" ? ", accepted there" : ", not confirmed there";
    return ok(SEARCH, `${answered}; its key is the watch key${vouched}`);
  }
  return ok(
    SEARCH,
    `${answered}; REGWATCH_SEARCH_API_KEY is a key of its own and was not tried (the first lookup tries it)`,
  );
}

/** This month's search requests against REGWATCH_SEARCH_MONTHLY_QUOTA. */
export function judgeQuota(used: number | undefined, limit: number, nextMonth: string): CheckResult {
  if (used === undefined)
    return warn(
      SEARCH_QUOTA,
      "not read: the database could not be read",
      "see the database and migrations lines",
    );
  const left = Math.max(0, limit - used);
  const counted = `${used} of ${limit} search requests used this month, ${left} left (the doctor spent none)`;
  const raise = "wait for the new month, or raise REGWATCH_SEARCH_MONTHLY_QUOTA if the contract allows more";
  if (left === 0) return fail(SEARCH_QUOTA, `${counted}: lookups are refused until ${nextMonth}`, raise);
  if (left < limit / 10) return warn(SEARCH_QUOTA, `${counted}: less than a tenth left`, raise);
  return ok(SEARCH_QUOTA, counted);
}

function headerText(answer: ProbeAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The server's own words after a refusal, short; printed through terminalSafe by the report. */
function bodyDetail(body: Buffer): string {
  const text = describeBody(body);
  return text ? ` (${text.slice(0, 160)})` : "";
}

function describeDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${(minutes / 60).toFixed(1)} h`;
}
