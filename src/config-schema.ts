/**
 * What each environment variable may hold: its default, the schema that parses it, and how a bad
 * value is described. src/config.ts turns the parsed values into the Config the program reads.
 */
import * as z from "zod";
import { parseTrustProxy } from "./config-proxy.ts";
import { baseUrlProblem, type InterfaceVersion } from "./config-url.ts";
import { nodeCron } from "./cron.ts";
import { isValidDate } from "./dates.ts";

/** Every default in one place; each is overridden by the environment variable named in `ENV_NAMES`. */
export const DEFAULTS = {
  dataDir: ".regwatch",
  rateLimit: 30,
  fileRateLimit: 30,
  schedule: "15 7 * * *",
  tz: "Europe/Budapest",
  lookbackDays: 6,
  changesFromParam: "start_date",
  changesToParam: "end_date",
  searchMonthlyQuota: 2000,
  httpPort: 9464,
  logLevel: "info",
  requestTimeoutMs: 30_000,
  maxAttempts: 6,
  retryBaseMs: 500,
  bulkChunkSize: 500,
  concurrency: 16,
  searchValueParam: "value",
  searchLimitParam: "limit",
  searchPageParam: "page",
  httpHost: "127.0.0.1",
  maxRetryAfterS: 300,
  maxFileBytes: 64 * 1024 * 1024,
  maxResponseBytes: 4 * 1024 * 1024,
  fetchFiles: "all",
  alertRetryBaseMs: 30_000,
  alertMaxAttempts: 12,
  alertRetryCapMs: 3_600_000,
  alertGiveUpHours: 24,
  alertTargetConcurrency: 4,
  paymentHoldDays: 30,
  paymentRecheckDays: 30,
  changesPageParam: "page",
  registryTz: "Europe/Budapest",
  locale: "en",
  webHost: "127.0.0.1",
  webPort: 8080,
  webSessionHours: 12,
  jobLeaseS: 300,
  jobMaxAttempts: 5,
} as const satisfies Record<string, string | number>;

const wholeNumber = z.string().regex(/^\d+$/, "must be a whole number").transform(Number);
const positiveInt = wholeNumber.pipe(z.number().positive("must be greater than 0"));
const nonNegativeInt = wholeNumber.pipe(z.number());
/** A whole number in [min, max]. */
const intRange = (min: number, max: number) =>
  wholeNumber.pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
/** An interface's base address: with or without its version segment, never another version's. */
export const baseUrl = (version: InterfaceVersion) =>
  httpUrl.superRefine((value, ctx) => {
    const problem = baseUrlProblem(value, version);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const paramName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_.\-[\]]*$/, "must be a query parameter name");

export const timeZone = z
  .string()
  .refine(isKnownTimeZone, "is not a known IANA time zone (e.g. Europe/Budapest)");
export const cronExpression = z
  .string()
  .refine((s) => nodeCron().validate(s), "is not a valid cron expression");
const date = z.string().refine(isValidDate, "must be a real date as YYYY-MM-DD");
export const logLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);
/** scheme://host[:port] and nothing else: a path, query or credentials would be silently dropped. */
export const originOnly = httpUrl
  .refine((u) => {
    const url = new URL(u);
    return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username;
  }, "must list origins only (scheme://host[:port]), without a path, query or credentials")
  .transform((u) => new URL(u).origin);
/** A comma list, each part trimmed, empty parts dropped. */
const commaList = z.string().transform((s) =>
  s
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0),
);
const originList = commaList.pipe(z.array(originOnly).min(1, "must list at least one origin"));

const booleanFlag = z
  .string()
  .regex(/^(true|false|1|0|yes|no)$/i, "must be true or false")
  .transform((s) => /^(true|1|yes)$/i.test(s));
/** No proxy, a hop count, or the proxies' addresses and networks (never `true`). */
const trustProxy = z.string().transform((s, ctx) => {
  const parsed = parseTrustProxy(s);
  if (parsed.ok) return parsed.value;
  ctx.addIssue({ code: "custom", message: parsed.problem });
  return z.NEVER;
});
/** `all`, `none`, or a comma list of heading names whose change files are fetched. */
const fetchPolicy = commaList
  .pipe(
    z
      .array(z.string().regex(/^[A-Za-z0-9_.-]+$/, "must be all, none or a comma list of heading names"))
      .min(1, "must be all, none or a comma list of heading names"),
  )
  .transform((parts): FetchFilesPolicy => {
    if (parts.length === 1 && parts[0] === "all") return { kind: "all" };
    if (parts.length === 1 && parts[0] === "none") return { kind: "none" };
    return { kind: "headings", headings: parts };
  });

/** Which change files a sync fetches (`REGWATCH_FETCH_FILES`). */
export type FetchFilesPolicy = { kind: "all" } | { kind: "none" } | { kind: "headings"; headings: string[] };

/** Variable name → schema. Unset and empty variables take the default. */
export const ENV = {
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  REGWATCH_DATA_DIR: z.string().min(1).default(DEFAULTS.dataDir),
  REGWATCH_WATCH_URL: baseUrl("v2").optional(),
  REGWATCH_SEARCH_URL: baseUrl("v1").optional(),
  REGWATCH_API_KEY: z.string().min(1).optional(),
  REGWATCH_SEARCH_API_KEY: z.string().min(1).optional(),
  REGWATCH_CLIENT_ID: z.string().min(1).optional(),
  REGWATCH_FILE_ORIGINS: originList.optional(),
  REGWATCH_RATE_LIMIT: positiveInt.default(DEFAULTS.rateLimit),
  REGWATCH_FILE_RATE_LIMIT: positiveInt.default(DEFAULTS.fileRateLimit),
  REGWATCH_SCHEDULE: cronExpression.default(DEFAULTS.schedule),
  REGWATCH_TZ: timeZone.default(DEFAULTS.tz),
  REGWATCH_START_DATE: date.optional(),
  REGWATCH_LOOKBACK_DAYS: intRange(0, 365).default(DEFAULTS.lookbackDays),
  REGWATCH_CHANGES_FROM_PARAM: paramName.default(DEFAULTS.changesFromParam),
  REGWATCH_CHANGES_TO_PARAM: paramName.default(DEFAULTS.changesToParam),
  REGWATCH_SEARCH_MONTHLY_QUOTA: nonNegativeInt.default(DEFAULTS.searchMonthlyQuota),
  REGWATCH_HTTP_PORT: wholeNumber
    .pipe(z.number().max(65535, "must be a port number"))
    .default(DEFAULTS.httpPort),
  REGWATCH_LOG_LEVEL: logLevel.default(DEFAULTS.logLevel),
  REGWATCH_REQUEST_TIMEOUT_MS: positiveInt.default(DEFAULTS.requestTimeoutMs),
  REGWATCH_MAX_ATTEMPTS: intRange(1, 20).default(DEFAULTS.maxAttempts),
  REGWATCH_RETRY_BASE_MS: intRange(1, 60_000).default(DEFAULTS.retryBaseMs),
  REGWATCH_BULK_CHUNK_SIZE: intRange(1, 2000).default(DEFAULTS.bulkChunkSize),
  REGWATCH_CONCURRENCY: intRange(1, 256).default(DEFAULTS.concurrency),
  REGWATCH_SEARCH_VALUE_PARAM: paramName.default(DEFAULTS.searchValueParam),
  REGWATCH_SEARCH_LIMIT_PARAM: paramName.default(DEFAULTS.searchLimitParam),
  REGWATCH_SEARCH_PAGE_PARAM: paramName.default(DEFAULTS.searchPageParam),
  REGWATCH_HTTP_HOST: z.string().min(1).default(DEFAULTS.httpHost),
  REGWATCH_MAX_RETRY_AFTER_S: positiveInt.default(DEFAULTS.maxRetryAfterS),
  REGWATCH_MAX_FILE_BYTES: positiveInt.default(DEFAULTS.maxFileBytes),
  REGWATCH_MAX_RESPONSE_BYTES: positiveInt.default(DEFAULTS.maxResponseBytes),
  REGWATCH_FETCH_FILES: fetchPolicy.default({ kind: DEFAULTS.fetchFiles }),
  REGWATCH_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must be whsec_ followed by base64")
    .optional(),
  REGWATCH_SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  REGWATCH_MAIL_FROM: z.string().min(3).optional(),
  REGWATCH_ALERT_RETRY_BASE_MS: positiveInt.default(DEFAULTS.alertRetryBaseMs),
  REGWATCH_ALERT_MAX_ATTEMPTS: intRange(1, 50).default(DEFAULTS.alertMaxAttempts),
  REGWATCH_ALERT_RETRY_CAP_MS: intRange(1000, 7 * 24 * 3_600_000).default(DEFAULTS.alertRetryCapMs),
  REGWATCH_ALERT_GIVE_UP_HOURS: intRange(1, 24 * 30).default(DEFAULTS.alertGiveUpHours),
  REGWATCH_ALERT_TARGET_CONCURRENCY: intRange(1, 64).default(DEFAULTS.alertTargetConcurrency),
  REGWATCH_PAYMENT_HOLD_DAYS: intRange(0, 3650).default(DEFAULTS.paymentHoldDays),
  REGWATCH_PAYMENT_RECHECK_DAYS: intRange(0, 3650).default(DEFAULTS.paymentRecheckDays),
  REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED: booleanFlag.default(false),
  REGWATCH_CHANGES_PAGE_PARAM: paramName.default(DEFAULTS.changesPageParam),
  REGWATCH_CHANGES_END_INCLUSIVE: booleanFlag.default(true),
  REGWATCH_REGISTRY_TZ: timeZone.default(DEFAULTS.registryTz),
  REGWATCH_LOCALE: z.enum(["en", "hu"], "must be en or hu").default(DEFAULTS.locale),
  REGWATCH_WEB_HOST: z.string().min(1).default(DEFAULTS.webHost),
  REGWATCH_WEB_PORT: wholeNumber
    .pipe(z.number().max(65535, "must be a port number"))
    .default(DEFAULTS.webPort),
  REGWATCH_WEB_SECURE_COOKIES: booleanFlag.default(false),
  REGWATCH_WEB_SESSION_HOURS: intRange(1, 24 * 30).default(DEFAULTS.webSessionHours),
  REGWATCH_WEB_TRUST_PROXY: trustProxy.default(false),
  REGWATCH_ACCOUNTS_FILE: z.string().min(1).optional(),
  REGWATCH_JOB_LEASE_S: intRange(2, 86_400).default(DEFAULTS.jobLeaseS),
  REGWATCH_JOB_MAX_ATTEMPTS: intRange(1, 100).default(DEFAULTS.jobMaxAttempts),
} satisfies Record<string, z.ZodType>;

export type EnvName = keyof typeof ENV;
export type Parsed = { [K in EnvName]: z.output<(typeof ENV)[K]> };

/** Variables sent as HTTP header values. */
export const HEADER_VARS: ReadonlySet<string> = new Set([
  "REGWATCH_API_KEY",
  "REGWATCH_SEARCH_API_KEY",
  "REGWATCH_CLIENT_ID",
]);
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const SECRET_VARS: ReadonlySet<string> = new Set([
  "REGWATCH_API_KEY",
  "REGWATCH_SEARCH_API_KEY",
  "DATABASE_URL",
  "REGWATCH_WEBHOOK_SECRET",
  "REGWATCH_SMTP_URL",
]);

export function describeIssue(error: z.ZodError, name: EnvName, raw: string | undefined): string {
  const message = error.issues[0]?.message ?? "is invalid";
  const wording = /^(must|is) /.test(message) ? message : `is invalid (${message})`;
  // Secrets and connection strings (which may hold a password) are never echoed back.
  return raw === undefined || SECRET_VARS.has(name) ? wording : `${wording}, got ${JSON.stringify(raw)}`;
}

function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
