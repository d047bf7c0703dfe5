/**
 * What each environment variable may hold: its default, the schema that parses it, and how a bad
 * value is described. src/config.ts turns the parsed values into the Config the program reads.
 */
import * as z from "zod";
import {
  type Checked,
  CRON_PROBLEM,
  checkCron,
  checkDatabaseUrl,
  checkLogLevel,
  checkTimeZone,
  checkWholeNumber,
  isKnownTimeZone,
  type LogLevel,
  TIME_ZONE_PROBLEM,
} from "./config-checks.ts";
import { parseTrustProxy } from "./config-proxy.ts";
import { baseUrlProblem, type InterfaceVersion } from "./config-url.ts";
import { nodeCron } from "./cron.ts";
import { isValidDate } from "./dates.ts";

export type { Checked, LogLevel };

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
  oidcScopes: "openid profile email",
  oidcNameClaim: "preferred_username,email",
  retainRepresentativesDays: 1826,
  retainSoleProprietorsDays: 1826,
  retainChangeBodiesDays: 400,
  retainPaymentRowsDays: 2922,
  retainPaymentFilesDays: 1,
  retainAlertRepliesDays: 90,
  retainSignInsDays: 90,
  retentionBatch: 1000,
} as const satisfies Record<string, string | number>;

/**
 * Builds a schema the first time it is asked for, once. Building zod schemas is most of what
 * loading the configuration costs (each one's methods are bound at construction), and a variable
 * left unset needs none: `regwatch status` builds the schemas of the variables that are set.
 */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}

const wholeNumber = once(() => z.string().regex(/^\d+$/, "must be a whole number").transform(Number));
const positiveInt = once(() => wholeNumber().pipe(z.number().positive("must be greater than 0")));
/** A whole number in [min, max]. */
const intRange = (min: number, max: number) => () =>
  wholeNumber().pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
const httpUrl = once(() => z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }));
/** An interface's base address: with or without its version segment, never another version's. */
export const baseUrl = (version: InterfaceVersion) =>
  httpUrl().superRefine((value, ctx) => {
    const problem = baseUrlProblem(value, version);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const paramName = once(() =>
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_.\-[\]]*$/, "must be a query parameter name"),
);

export const timeZone = once(() => z.string().refine(isKnownTimeZone, TIME_ZONE_PROBLEM));
export const cronExpression = once(() => z.string().refine((s) => nodeCron().validate(s), CRON_PROBLEM));
const date = once(() => z.string().refine(isValidDate, "must be a real date as YYYY-MM-DD"));
/** scheme://host[:port] and nothing else: a path, query or credentials would be silently dropped. */
export const originOnly = once(() =>
  httpUrl()
    .refine((u) => {
      const url = new URL(u);
      return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username;
    }, "must list origins only (scheme://host[:port]), without a path, query or credentials")
    .transform((u) => new URL(u).origin),
);
/** A comma list, each part trimmed, empty parts dropped. */
const commaList = () =>
  z.string().transform((s) =>
    s
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  );
const originList = () => commaList().pipe(z.array(originOnly()).min(1, "must list at least one origin"));

const booleanFlag = () =>
  z
    .string()
    .regex(/^(true|false|1|0|yes|no)$/i, "must be true or false")
    .transform((s) => /^(true|1|yes)$/i.test(s));
/** A switch written on/off (or as a boolean flag). */
const onOff = () =>
  z
    .string()
    .regex(/^(on|off|true|false|1|0|yes|no)$/i, "must be on or off")
    .transform((s) => /^(on|true|1|yes)$/i.test(s));
/** No proxy, a hop count, or the proxies' addresses and networks (never `true`). */
const trustProxy = () =>
  z.string().transform((s, ctx) => {
    const parsed = parseTrustProxy(s);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: "custom", message: parsed.problem });
    return z.NEVER;
  });
/** `all`, `none`, or a comma list of heading names whose change files are fetched. */
const fetchPolicy = () =>
  commaList()
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

/**
 * One variable: the value it takes when unset or empty (taken as is, without building its schema)
 * and its schema, built on first use, whose own default is that same value.
 */
export interface EnvVariable<S extends z.ZodType = z.ZodType> {
  unset: z.output<S>;
  schema: () => S;
  /** A check written by hand, which loadConfig runs instead of building the schema (`checked`). */
  check?: (given: string) => Checked<z.output<S>>;
}

/**
 * A variable `regwatch status` reads, checked by hand (`check`): a status whose variables are all
 * of these loads no zod (the status file loads it at its first schema, scripts/one-file-builds.mjs).
 * Its schema runs the same check, so the two cannot say different things of a value.
 */
function checked<T>(unset: T, check: (given: string) => Checked<NonNullable<T>>): EnvVariable<z.ZodType<T>> {
  const schema = once(() => {
    const parse = z.string().transform((s, ctx) => {
      const result = check(s);
      if (result.ok) return result.value;
      ctx.addIssue({ code: "custom", message: result.message });
      return z.NEVER;
    });
    return unset === undefined ? parse.optional() : parse.default(unset as never);
  });
  return { unset, check, schema: schema as () => z.ZodType<T> };
}

function optional<S extends z.ZodType>(build: () => S): EnvVariable<z.ZodOptional<S>> {
  return { unset: undefined, schema: once(() => build().optional()) };
}

function withDefault<S extends z.ZodType>(
  value: z.util.NoUndefined<z.output<S>>,
  build: () => S,
): EnvVariable<z.ZodDefault<S>> {
  return { unset: value, schema: once(() => build().default(value)) };
}

/**
 * Variable name → what it may hold. Unset and empty variables take the default (`unset`), and only
 * the schemas of the variables that are set are built.
 */
export const ENV = {
  DATABASE_URL: checked(undefined as string | undefined, checkDatabaseUrl),
  REGWATCH_DATA_DIR: withDefault(DEFAULTS.dataDir, () => z.string().min(1)),
  REGWATCH_WATCH_URL: optional(() => baseUrl("v2")),
  REGWATCH_SEARCH_URL: optional(() => baseUrl("v1")),
  REGWATCH_API_KEY: optional(() => z.string().min(1)),
  REGWATCH_SEARCH_API_KEY: optional(() => z.string().min(1)),
  REGWATCH_CLIENT_ID: optional(() => z.string().min(1)),
  REGWATCH_FILE_ORIGINS: optional(originList),
  REGWATCH_RATE_LIMIT: withDefault(DEFAULTS.rateLimit, positiveInt),
  REGWATCH_FILE_RATE_LIMIT: withDefault(DEFAULTS.fileRateLimit, positiveInt),
  REGWATCH_SCHEDULE: checked<string>(DEFAULTS.schedule, checkCron),
  REGWATCH_TZ: checked<string>(DEFAULTS.tz, checkTimeZone),
  REGWATCH_START_DATE: optional(date),
  REGWATCH_LOOKBACK_DAYS: withDefault(DEFAULTS.lookbackDays, intRange(0, 365)),
  REGWATCH_CHANGES_FROM_PARAM: withDefault(DEFAULTS.changesFromParam, paramName),
  REGWATCH_CHANGES_TO_PARAM: withDefault(DEFAULTS.changesToParam, paramName),
  REGWATCH_SEARCH_MONTHLY_QUOTA: checked<number>(DEFAULTS.searchMonthlyQuota, checkWholeNumber),
  REGWATCH_HTTP_PORT: withDefault(DEFAULTS.httpPort, () =>
    wholeNumber().pipe(z.number().max(65535, "must be a port number")),
  ),
  REGWATCH_LOG_LEVEL: checked<LogLevel>(DEFAULTS.logLevel, checkLogLevel),
  REGWATCH_REQUEST_TIMEOUT_MS: withDefault(DEFAULTS.requestTimeoutMs, positiveInt),
  REGWATCH_MAX_ATTEMPTS: withDefault(DEFAULTS.maxAttempts, intRange(1, 20)),
  REGWATCH_RETRY_BASE_MS: withDefault(DEFAULTS.retryBaseMs, intRange(1, 60_000)),
  REGWATCH_BULK_CHUNK_SIZE: withDefault(DEFAULTS.bulkChunkSize, intRange(1, 2000)),
  REGWATCH_CONCURRENCY: withDefault(DEFAULTS.concurrency, intRange(1, 256)),
  REGWATCH_SEARCH_VALUE_PARAM: withDefault(DEFAULTS.searchValueParam, paramName),
  REGWATCH_SEARCH_LIMIT_PARAM: withDefault(DEFAULTS.searchLimitParam, paramName),
  REGWATCH_SEARCH_PAGE_PARAM: withDefault(DEFAULTS.searchPageParam, paramName),
  REGWATCH_HTTP_HOST: withDefault(DEFAULTS.httpHost, () => z.string().min(1)),
  REGWATCH_MAX_RETRY_AFTER_S: withDefault(DEFAULTS.maxRetryAfterS, positiveInt),
  REGWATCH_MAX_FILE_BYTES: withDefault(DEFAULTS.maxFileBytes, positiveInt),
  REGWATCH_MAX_RESPONSE_BYTES: withDefault(DEFAULTS.maxResponseBytes, positiveInt),
  REGWATCH_FETCH_FILES: withDefault({ kind: DEFAULTS.fetchFiles }, fetchPolicy),
  REGWATCH_WEBHOOK_SECRET: optional(() =>
    z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must be whsec_ followed by base64"),
  ),
  REGWATCH_SMTP_URL: optional(() =>
    z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }),
  ),
  REGWATCH_MAIL_FROM: optional(() => z.string().min(3)),
  REGWATCH_ALERT_RETRY_BASE_MS: withDefault(DEFAULTS.alertRetryBaseMs, positiveInt),
  REGWATCH_ALERT_MAX_ATTEMPTS: withDefault(DEFAULTS.alertMaxAttempts, intRange(1, 50)),
  REGWATCH_ALERT_RETRY_CAP_MS: withDefault(DEFAULTS.alertRetryCapMs, intRange(1000, 7 * 24 * 3_600_000)),
  REGWATCH_ALERT_GIVE_UP_HOURS: withDefault(DEFAULTS.alertGiveUpHours, intRange(1, 24 * 30)),
  REGWATCH_ALERT_TARGET_CONCURRENCY: withDefault(DEFAULTS.alertTargetConcurrency, intRange(1, 64)),
  REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: withDefault(false, booleanFlag),
  REGWATCH_PAYMENT_HOLD_DAYS: withDefault(DEFAULTS.paymentHoldDays, intRange(0, 3650)),
  REGWATCH_PAYMENT_RECHECK_DAYS: withDefault(DEFAULTS.paymentRecheckDays, intRange(0, 3650)),
  REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED: withDefault(false, booleanFlag),
  REGWATCH_CHANGES_PAGE_PARAM: withDefault(DEFAULTS.changesPageParam, paramName),
  REGWATCH_CHANGES_END_INCLUSIVE: withDefault(true, booleanFlag),
  REGWATCH_REGISTRY_TZ: checked<string>(DEFAULTS.registryTz, checkTimeZone),
  REGWATCH_LOCALE: withDefault(DEFAULTS.locale, () => z.enum(["en", "hu"], "must be en or hu")),
  REGWATCH_WEB_HOST: withDefault(DEFAULTS.webHost, () => z.string().min(1)),
  REGWATCH_WEB_PORT: withDefault(DEFAULTS.webPort, () =>
    wholeNumber().pipe(z.number().max(65535, "must be a port number")),
  ),
  REGWATCH_WEB_SECURE_COOKIES: withDefault(false, booleanFlag),
  REGWATCH_WEB_SESSION_HOURS: withDefault(DEFAULTS.webSessionHours, intRange(1, 24 * 30)),
  REGWATCH_WEB_TRUST_PROXY: withDefault(false, trustProxy),
  REGWATCH_ACCOUNTS_FILE: optional(() => z.string().min(1)),
  REGWATCH_OIDC_ISSUER: optional(httpUrl),
  REGWATCH_OIDC_CLIENT_ID: optional(() => z.string().min(1)),
  REGWATCH_OIDC_CLIENT_SECRET: optional(() => z.string().min(1)),
  REGWATCH_OIDC_CLIENT_SECRET_FILE: optional(() => z.string().min(1)),
  REGWATCH_OIDC_REDIRECT_URL: optional(httpUrl),
  REGWATCH_OIDC_ROLE_MAP: optional(() => z.string().min(1)),
  REGWATCH_OIDC_SCOPES: withDefault(DEFAULTS.oidcScopes, () => z.string().min(1)),
  REGWATCH_OIDC_NAME_CLAIM: withDefault(DEFAULTS.oidcNameClaim, () => z.string().min(1)),
  REGWATCH_OIDC_LOCAL_USERS: withDefault(true, onOff),
  REGWATCH_OIDC_LABEL: optional(() => z.string().min(1).max(80)),
  REGWATCH_JOB_LEASE_S: withDefault(DEFAULTS.jobLeaseS, intRange(2, 86_400)),
  REGWATCH_JOB_MAX_ATTEMPTS: withDefault(DEFAULTS.jobMaxAttempts, intRange(1, 100)),
  REGWATCH_RETAIN_REPRESENTATIVES_DAYS: withDefault(DEFAULTS.retainRepresentativesDays, intRange(1, 36_500)),
  REGWATCH_RETAIN_SOLE_PROPRIETORS_DAYS: withDefault(DEFAULTS.retainSoleProprietorsDays, intRange(1, 36_500)),
  REGWATCH_RETAIN_CHANGE_BODIES_DAYS: withDefault(DEFAULTS.retainChangeBodiesDays, intRange(1, 36_500)),
  REGWATCH_RETAIN_PAYMENT_ROWS_DAYS: withDefault(DEFAULTS.retainPaymentRowsDays, intRange(1, 36_500)),
  REGWATCH_RETAIN_PAYMENT_FILES_DAYS: withDefault(DEFAULTS.retainPaymentFilesDays, intRange(1, 36_500)),
  REGWATCH_RETAIN_ALERT_REPLIES_DAYS: withDefault(DEFAULTS.retainAlertRepliesDays, intRange(1, 36_500)),
  REGWATCH_RETAIN_SIGN_INS_DAYS: withDefault(DEFAULTS.retainSignInsDays, intRange(1, 36_500)),
  REGWATCH_RETENTION_BATCH: withDefault(DEFAULTS.retentionBatch, intRange(1, 100_000)),
} satisfies Record<string, EnvVariable>;

export type EnvName = keyof typeof ENV;
export type Parsed = {
  [K in EnvName]: (typeof ENV)[K]["unset"] | z.output<ReturnType<(typeof ENV)[K]["schema"]>>;
};

/** Variables sent as HTTP header values. */
export const HEADER_VARS: ReadonlySet<string> = new Set([
  "REGWATCH_API_KEY",
  "REGWATCH_SEARCH_API_KEY",
  "REGWATCH_CLIENT_ID",
]);
/** C0 controls, DEL and C1 controls: none belongs in a header value. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

const SECRET_VARS: ReadonlySet<string> = new Set([
  "REGWATCH_API_KEY",
  "REGWATCH_SEARCH_API_KEY",
  "DATABASE_URL",
  "REGWATCH_WEBHOOK_SECRET",
  "REGWATCH_SMTP_URL",
  "REGWATCH_OIDC_CLIENT_SECRET",
]);

export function describeIssue(error: z.ZodError, name: EnvName, raw: string | undefined): string {
  return describeProblem(error.issues[0]?.message ?? "is invalid", name, raw);
}

/** A bad value of `name` in words, from the message its check or schema gave. */
export function describeProblem(message: string, name: EnvName, raw: string | undefined): string {
  const wording = /^(must|is) /.test(message) ? message : `is invalid (${message})`;
  // Secrets and connection strings (which may hold a password) are never echoed back.
  return raw === undefined || SECRET_VARS.has(name) ? wording : `${wording}, got ${JSON.stringify(raw)}`;
}
