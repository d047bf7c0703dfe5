/**
 * The one place secrets are scrubbed from text before it reaches any sink: logs, run rows, file
 * errors, item outcomes, status output, summaries, metrics labels and alert payloads. A registry
 * may echo the API key back in an error body (a "key … is not valid" message, an HTML 403 page),
 * so everything that came from outside is passed through here before it is stored or printed.
 *
 * The secrets of the process are registered once, when the configuration is loaded; tests and
 * libraries that build a configuration by hand register theirs the same way.
 */

const MARKER = "[redacted]";
const registered = new Set<string>();

/** Adds secrets (API keys, webhook secret, SMTP password) to the set every sink scrubs. */
export function registerSecrets(secrets: readonly (string | undefined)[]): void {
  for (const secret of secrets) {
    // Very short values would blank out ordinary text; real keys are far longer.
    if (secret && secret.length >= 4) registered.add(secret);
  }
}

/** Replaces every form of each secret (raw, JSON-escaped, URL-encoded) with a marker. */
export function redactSecrets(text: string, secrets: Iterable<string> = registered): string {
  let out = text;
  for (const secret of secrets) {
    for (const form of formsOf(secret)) {
      if (form.length > 0 && out.includes(form)) out = out.split(form).join(MARKER);
    }
  }
  return out;
}

/** Scrubs every string inside a JSON-like value (keys included); other values are kept as they are. */
export function redactJson<T>(value: T, secrets: Iterable<string> = registered): T {
  const list = [...secrets];
  if (list.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactSecrets(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object" && !(v instanceof Date)) {
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [redactSecrets(k, list), walk(inner)]));
    }
    return v;
  };
  return walk(value) as T;
}

/** Scrubs the message of anything thrown, for sinks that store or print an error. */
export function redactError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return redactSecrets(message);
}

function formsOf(secret: string): Set<string> {
  return new Set([
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    Buffer.from(secret).toString("base64"),
  ]);
}

// Anything with an @ between two runs of address characters: a reply may quote its recipients
// ("250 … queued for <cfo.private@example.com>"), and readers of delivery rows must not learn them.
const ADDRESS = /[^\s<>()[\]",;:@]+@[^\s<>()[\]",;:@]+/g;

/** Replaces whatever looks like an e-mail address with a marker; for receivers' replies before they are stored. */
export function redactAddresses(text: string): string {
  return text.replace(ADDRESS, "[address]");
}
