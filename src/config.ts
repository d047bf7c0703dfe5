/**
 * The validated configuration the program reads, built once at start from the environment (each
 * variable's schema and default: config-schema.ts).
 */
import { keyValueProblem } from "./account-keys.ts";
import { type OidcConfig, oidcConfigOf } from "./config-oidc.ts";
import type { TrustProxy } from "./config-proxy.ts";
import {
  CONTROL_CHARS,
  DEFAULTS,
  describeIssue,
  describeProblem,
  ENV,
  type EnvName,
  type EnvVariable,
  type FetchFilesPolicy,
  HEADER_VARS,
  type LogLevel,
  type Parsed,
} from "./config-schema.ts";
import { ConfigError } from "./errors.ts";
import { registerSecrets } from "./secrets.ts";

export { DEFAULTS, type EnvName, type FetchFilesPolicy };

/** How long each kind of personal data is kept, in days, and how many rows one transaction changes. */
export interface RetentionSettings {
  representatives: number;
  soleProprietors: number;
  changeBodies: number;
  paymentRows: number;
  paymentFiles: number;
  alertReplies: number;
  signIns: number;
  batch: number;
}

/** Validated configuration; built once at start by `loadConfig`. */
export interface Config {
  databaseUrl: string | undefined;
  /**
   * The account this configuration serves: undefined for a plain install (schema `regwatch`),
   * else an entry of REGWATCH_ACCOUNTS_FILE, whose tables live in schema `regwatch_<name>`.
   */
  account: string | undefined;
  /** The schema every statement of this configuration reads and writes. */
  schema: string;
  /**
   * An account's variables holding its keys (api_key_env, search_api_key_env), so a command that
   * needs a key it lacks names the variable to set; undefined for a plain install.
   */
  keyVariables?: { apiKey: string; searchApiKey: string };
  dataDir: string;
  /** REGWATCH_WATCH_URL as given, trailing slash removed: may end in `/v2` (config-url.ts). */
  watchUrl: string | undefined;
  /** REGWATCH_SEARCH_URL as given, trailing slash removed: may end in `/v1`. */
  searchUrl: string | undefined;
  apiKey: string | undefined;
  searchApiKey: string | undefined;
  clientId: string | undefined;
  /** Origins change files may be fetched from; defaults to the watch URL's origin. */
  fileOrigins: string[];
  rateLimit: number;
  fileRateLimit: number;
  schedule: string;
  tz: string;
  /**
   * The console's language when neither the user nor the browser says, and the language of alert
   * e-mails and webhook text (REGWATCH_LOCALE).
   */
  locale: "en" | "hu";
  startDate: string | undefined;
  lookbackDays: number;
  changesFromParam: string;
  changesToParam: string;
  searchMonthlyQuota: number;
  httpPort: number;
  logLevel: LogLevel;
  requestTimeoutMs: number;
  maxAttempts: number;
  /** First backoff step; later ones double, with jitter, up to 30 s. */
  retryBaseMs: number;
  bulkChunkSize: number;
  concurrency: number;
  searchParams: { value: string; limit: string; page: string };
  /** Daemon's bind address for /healthz, /readyz and /metrics. */
  httpHost: string;
  /** A Retry-After longer than this fails the request instead of pausing. */
  maxRetryAfterS: number;
  maxFileBytes: number;
  maxResponseBytes: number;
  fetchFiles: FetchFilesPolicy;
  webhookSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  alertRetryBaseMs: number;
  alertMaxAttempts: number;
  /** Longest single wait between two attempts of one message (Retry-After included). */
  alertRetryCapMs: number;
  /** Age after which an undelivered message is dead. */
  alertGiveUpHours: number;
  /** Messages in flight at once to one receiver. */
  alertTargetConcurrency: number;
  /** Alert targets on loopback, link-local and private addresses are allowed (tests, a local receiver). */
  alertAllowPrivateTargets: boolean;
  paymentHoldDays: number;
  /** `payments check --online` re-reads a payee whose newest search record is older than this. */
  paymentRecheckDays: number;
  /** Pass (with a warning) a payment to an account no source has shown, instead of holding it. */
  paymentAcceptUnconfirmed: boolean;
  /** Page parameter sent when a changes answer says `has_next: true`. */
  changesPageParam: string;
  /** Whether the registry's interval end is inclusive (unknown in its document). */
  changesEndInclusive: boolean;
  /** Zone of the registry's 06:00 load and 07:00 rule, apart from the schedule's zone. */
  registryTz: string;
  /** The web console's bind address and port (`regwatch web`, `daemon --web`). */
  webHost: string;
  webPort: number;
  /** Console cookies carry Secure even when the request came over plain HTTP (behind a TLS proxy). */
  webSecureCookies: boolean;
  /** A console session ends this many hours after sign-in. */
  webSessionHours: number;
  /**
   * The proxies in front of the console (a hop count, or their addresses and networks): the
   * client's address (sign-in limit) and scheme (Secure cookies) are the ones the nearest
   * untrusted hop gave in X-Forwarded-For / X-Forwarded-Proto. false: those headers are ignored.
   */
  webTrustProxy: TrustProxy;
  /** A queue worker whose heartbeat is older than this is dead: its jobs go to the others. */
  jobLeaseS: number;
  /** Tries of one queued job (the first included) before it stays failed. */
  jobMaxAttempts: number;
  /** Days each kind of personal data is kept (REGWATCH_RETAIN_*_DAYS) and rows per transaction. */
  retention: RetentionSettings;
  /**
   * The variables given a non-empty value in the environment. A setting the registry's own
   * description may also supply (the changes parameters) is taken from the environment only when
   * named here; otherwise its default gives way to what the description says.
   */
  explicit: ReadonlySet<EnvName>;
  /** REGWATCH_ACCOUNTS_FILE: the accounts a fleet serves (src/accounts.ts); unset for one account. */
  accountsFile: string | undefined;
  /** Company sign-in to the console (REGWATCH_OIDC_*, config-oidc.ts); undefined: off. */
  oidc: OidcConfig | undefined;
}

/** Parses the environment; throws one ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const parsed: Partial<Record<EnvName, unknown>> = {};
  const explicit = new Set<EnvName>();
  for (const [name, variable] of Object.entries(ENV) as [EnvName, EnvVariable][]) {
    const raw = env[name];
    // Checked before trimming: a key ending in a newline or a blank must be refused, not quietly
    // repaired (the registry would receive a key other than the one written), one with a newline
    // inside would split the header it is sent in, and credentials are no key.
    const unusable = headerValueProblem(name, raw);
    if (unusable !== undefined) {
      problems.push(`${name}: ${unusable}`);
      continue;
    }
    const given = raw === undefined || raw.trim() === "" ? undefined : raw.trim();
    if (given === undefined) {
      // The schema's own default, without building the schema (a copy, as zod gives one).
      const { unset } = variable;
      parsed[name] = typeof unset === "object" && unset !== null ? { ...unset } : unset;
      continue;
    }
    explicit.add(name);
    if (variable.check) {
      const result = variable.check(given);
      if (result.ok) parsed[name] = result.value;
      else problems.push(`${name}: ${describeProblem(result.message, name, raw)}`);
      continue;
    }
    const result = variable.schema().safeParse(given);
    if (result.success) parsed[name] = result.data;
    else problems.push(`${name}: ${describeIssue(result.error, name, raw)}`);
  }
  const p = parsed as Parsed;
  const oidc = problems.length > 0 ? undefined : oidcConfigOf(p, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const config: Config = {
    databaseUrl: p.DATABASE_URL,
    account: undefined,
    schema: "regwatch",
    dataDir: p.REGWATCH_DATA_DIR,
    watchUrl: p.REGWATCH_WATCH_URL?.replace(/\/+$/, ""),
    searchUrl: p.REGWATCH_SEARCH_URL?.replace(/\/+$/, ""),
    apiKey: p.REGWATCH_API_KEY,
    searchApiKey: p.REGWATCH_SEARCH_API_KEY ?? p.REGWATCH_API_KEY,
    clientId: p.REGWATCH_CLIENT_ID,
    fileOrigins:
      p.REGWATCH_FILE_ORIGINS ?? (p.REGWATCH_WATCH_URL ? [new URL(p.REGWATCH_WATCH_URL).origin] : []),
    rateLimit: p.REGWATCH_RATE_LIMIT,
    fileRateLimit: p.REGWATCH_FILE_RATE_LIMIT,
    schedule: p.REGWATCH_SCHEDULE,
    tz: p.REGWATCH_TZ,
    locale: p.REGWATCH_LOCALE,
    startDate: p.REGWATCH_START_DATE,
    lookbackDays: p.REGWATCH_LOOKBACK_DAYS,
    changesFromParam: p.REGWATCH_CHANGES_FROM_PARAM,
    changesToParam: p.REGWATCH_CHANGES_TO_PARAM,
    searchMonthlyQuota: p.REGWATCH_SEARCH_MONTHLY_QUOTA,
    httpPort: p.REGWATCH_HTTP_PORT,
    logLevel: p.REGWATCH_LOG_LEVEL,
    requestTimeoutMs: p.REGWATCH_REQUEST_TIMEOUT_MS,
    maxAttempts: p.REGWATCH_MAX_ATTEMPTS,
    retryBaseMs: p.REGWATCH_RETRY_BASE_MS,
    bulkChunkSize: p.REGWATCH_BULK_CHUNK_SIZE,
    concurrency: p.REGWATCH_CONCURRENCY,
    searchParams: {
      value: p.REGWATCH_SEARCH_VALUE_PARAM,
      limit: p.REGWATCH_SEARCH_LIMIT_PARAM,
      page: p.REGWATCH_SEARCH_PAGE_PARAM,
    },
    httpHost: p.REGWATCH_HTTP_HOST,
    maxRetryAfterS: p.REGWATCH_MAX_RETRY_AFTER_S,
    maxFileBytes: p.REGWATCH_MAX_FILE_BYTES,
    maxResponseBytes: p.REGWATCH_MAX_RESPONSE_BYTES,
    fetchFiles: p.REGWATCH_FETCH_FILES,
    webhookSecret: p.REGWATCH_WEBHOOK_SECRET,
    smtpUrl: p.REGWATCH_SMTP_URL,
    mailFrom: p.REGWATCH_MAIL_FROM,
    alertRetryBaseMs: p.REGWATCH_ALERT_RETRY_BASE_MS,
    alertMaxAttempts: p.REGWATCH_ALERT_MAX_ATTEMPTS,
    alertRetryCapMs: p.REGWATCH_ALERT_RETRY_CAP_MS,
    alertGiveUpHours: p.REGWATCH_ALERT_GIVE_UP_HOURS,
    alertTargetConcurrency: p.REGWATCH_ALERT_TARGET_CONCURRENCY,
    alertAllowPrivateTargets: p.REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS,
    paymentHoldDays: p.REGWATCH_PAYMENT_HOLD_DAYS,
    paymentRecheckDays: p.REGWATCH_PAYMENT_RECHECK_DAYS,
    paymentAcceptUnconfirmed: p.REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED,
    changesPageParam: p.REGWATCH_CHANGES_PAGE_PARAM,
    changesEndInclusive: p.REGWATCH_CHANGES_END_INCLUSIVE,
    registryTz: p.REGWATCH_REGISTRY_TZ,
    webHost: p.REGWATCH_WEB_HOST,
    webPort: p.REGWATCH_WEB_PORT,
    webSecureCookies: p.REGWATCH_WEB_SECURE_COOKIES,
    webSessionHours: p.REGWATCH_WEB_SESSION_HOURS,
    webTrustProxy: p.REGWATCH_WEB_TRUST_PROXY,
    jobLeaseS: p.REGWATCH_JOB_LEASE_S,
    jobMaxAttempts: p.REGWATCH_JOB_MAX_ATTEMPTS,
    retention: {
      representatives: p.REGWATCH_RETAIN_REPRESENTATIVES_DAYS,
      soleProprietors: p.REGWATCH_RETAIN_SOLE_PROPRIETORS_DAYS,
      changeBodies: p.REGWATCH_RETAIN_CHANGE_BODIES_DAYS,
      paymentRows: p.REGWATCH_RETAIN_PAYMENT_ROWS_DAYS,
      paymentFiles: p.REGWATCH_RETAIN_PAYMENT_FILES_DAYS,
      alertReplies: p.REGWATCH_RETAIN_ALERT_REPLIES_DAYS,
      signIns: p.REGWATCH_RETAIN_SIGN_INS_DAYS,
      batch: p.REGWATCH_RETENTION_BATCH,
    },
    explicit,
    accountsFile: p.REGWATCH_ACCOUNTS_FILE,
    oidc,
  };
  registerSecrets(secretsOf(config));
  return config;
}

const KEY_VARS: ReadonlySet<EnvName> = new Set(["REGWATCH_API_KEY", "REGWATCH_SEARCH_API_KEY"]);

/** Why a variable sent as a header value (a key, the client id) cannot be sent as it is written. */
function headerValueProblem(name: EnvName, raw: string | undefined): string | undefined {
  if (raw === undefined || !HEADER_VARS.has(name)) return undefined;
  if (KEY_VARS.has(name)) return raw.trim() === "" ? undefined : keyValueProblem(raw);
  return CONTROL_CHARS.test(raw)
    ? "must not contain control characters (newline, carriage return, tab, ...)"
    : undefined;
}

/** The watch interface is needed: names every missing variable at once. */
export function requireWatch(
  config: Config,
): asserts config is Config & { watchUrl: string; apiKey: string } {
  const problems: string[] = [];
  if (!config.watchUrl)
    problems.push("REGWATCH_WATCH_URL: required for commands that call the watch interface");
  if (!config.apiKey) {
    problems.push(
      config.keyVariables
        ? `${config.keyVariables.apiKey}: must hold the API key of account "${config.account}" to call its watch interface; it is unset or empty`
        : "REGWATCH_API_KEY: required for commands that call the watch interface",
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
}

/** The search interface is needed. */
export function requireSearch(
  config: Config,
): asserts config is Config & { searchUrl: string; searchApiKey: string } {
  const problems: string[] = [];
  if (!config.searchUrl)
    problems.push("REGWATCH_SEARCH_URL: required for commands that call the search interface");
  if (!config.searchApiKey) {
    problems.push(
      config.keyVariables
        ? `${config.keyVariables.searchApiKey}: must hold the search key of account "${config.account}"; it is unset or empty`
        : "REGWATCH_SEARCH_API_KEY (or REGWATCH_API_KEY): required for the search interface",
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
}

/** The values that must never be logged or stored. */
export function secretsOf(
  config: Pick<Config, "apiKey" | "searchApiKey"> &
    Partial<Pick<Config, "webhookSecret" | "smtpUrl" | "oidc">>,
): string[] {
  const smtpPassword = config.smtpUrl ? passwordOf(config.smtpUrl) : undefined;
  const oidcSecret = config.oidc?.clientSecret;
  return [config.apiKey, config.searchApiKey, config.webhookSecret, smtpPassword, oidcSecret].filter(
    (s): s is string => Boolean(s),
  );
}

function passwordOf(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}
