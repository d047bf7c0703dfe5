/**
 * Alert targets and change-file origins: each reached or not, and what that means for the
 * messages and files that will go there; and whether the delivery passes themselves fail. Pure:
 * reachability comes from probe-alerts.ts and probe-http.ts, the outbox from database-checks.ts.
 * Addresses are shown as origins only: a target's path or query may hold a token.
 */

import { FAILING_NEXT, failingText, pendingText, recoveredText } from "../alerts/delivery-health.ts";
import type { DeliveryFacts } from "./database-checks.ts";
import type { Reach } from "./probe-alerts.ts";
import type { Probe } from "./probe-http.ts";
import { type CheckResult, fail, ok, warn } from "./report.ts";

export const EMAIL = "e-mail";
export const WEBHOOKS = "webhooks";
export const DELIVERY = "alert delivery";

/**
 * Whether alert messages go out: a streak of delivery passes failing with an error of regwatch's
 * own (written by whichever process delivers: the daemon, a sync, `alerts deliver`) fails it.
 */
export function judgeDelivery(facts: DeliveryFacts, timeZone: string): CheckResult {
  const { counts, health } = facts;
  const dead = counts.dead > 0 ? `, ${counts.dead} dead (\`regwatch alerts list\` names them)` : "";
  const messages = `messages: ${pendingText(counts)}${dead}`;
  const failing = failingText(health, timeZone);
  if (failing) return fail(DELIVERY, `${failing}; ${messages}`, FAILING_NEXT);
  const recovered = recoveredText(health, timeZone);
  return ok(DELIVERY, `no delivery pass is failing; ${messages}${recovered ? `; ${recovered}` : ""}`);
}

export interface EmailFacts {
  /** Enabled e-mail rules; undefined when the rules could not be read. */
  rules: number | undefined;
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  /** The greeting, when REGWATCH_SMTP_URL is set. */
  verified: Reach | undefined;
}

export function judgeEmail(f: EmailFacts): CheckResult {
  const rules = f.rules === undefined ? "" : ` (${f.rules} e-mail rule(s))`;
  if (!f.smtpUrl || !f.mailFrom) {
    const unset = [f.smtpUrl ? "" : "REGWATCH_SMTP_URL", f.mailFrom ? "" : "REGWATCH_MAIL_FROM"].filter(
      Boolean,
    );
    if (f.rules === 0 || (f.rules === undefined && !f.smtpUrl && !f.mailFrom))
      return ok(EMAIL, `no e-mail alert rule${f.smtpUrl ? "" : ", no SMTP server set"}`);
    const what = `${unset.join(" and ")} not set${rules}: e-mail messages wait until ${unset.length > 1 ? "they are" : "it is"}`;
    return f.rules === undefined
      ? warn(EMAIL, what, `set ${unset.join(" and ")}`)
      : fail(EMAIL, what, `set ${unset.join(" and ")}`);
  }
  const server = serverOf(f.smtpUrl);
  const v = f.verified;
  if (!v) return warn(EMAIL, `${server} not asked${rules}`, "run doctor again");
  if (v.reached) return ok(EMAIL, `${server} ${v.detail}${rules}; no message was sent`);
  const why = v.responseCode ? `refused: ${v.message}` : `not reachable: ${v.message}`;
  return fail(
    EMAIL,
    `${server} ${why}${rules}`,
    v.responseCode === 535 || v.code === "EAUTH"
      ? "check the user and password in REGWATCH_SMTP_URL"
      : "check REGWATCH_SMTP_URL (host, port; smtps:// for a port that starts with TLS) and that this machine reaches it",
  );
}

export interface WebhookTarget {
  origin: string;
  rules: string[];
  reach: Reach;
}

/** One line per webhook origin of the enabled rules; one line in all when there is none. */
export function judgeWebhooks(
  targets: readonly WebhookTarget[] | undefined,
  secretSet: boolean,
): CheckResult[] {
  if (targets === undefined)
    return [
      warn(WEBHOOKS, "not read: the database could not be read", "see the database and migrations lines"),
    ];
  if (targets.length === 0) return [ok(WEBHOOKS, "no webhook alert rule")];
  const results: CheckResult[] = [];
  if (!secretSet) {
    results.push(
      fail(
        WEBHOOKS,
        `REGWATCH_WEBHOOK_SECRET is not set: webhook messages wait until it is`,
        "set REGWATCH_WEBHOOK_SECRET to the whsec_ secret the receivers check signatures with",
      ),
    );
  }
  for (const t of targets) {
    const name = `webhook ${t.origin}`;
    const rules = `rule(s) ${t.rules.join(", ")}`;
    if (t.reach.reached) {
      results.push(ok(name, `${t.reach.detail} (${rules}); no request was sent`));
    } else if (isCertificateError(t.reach.code)) {
      results.push(
        fail(
          name,
          `its TLS certificate does not verify: ${certificateProblem(t.reach.message)} (${rules})`,
          "the receiver needs a certificate this machine trusts (NODE_EXTRA_CA_CERTS adds a private CA; NODE_OPTIONS=--use-system-ca trusts the system's own store)",
        ),
      );
    } else {
      results.push(
        fail(
          name,
          `not reachable: ${t.reach.message} (${rules})`,
          "check the rule's target (`regwatch alerts rule list`) and that this machine reaches it",
        ),
      );
    }
  }
  return results;
}

/**
 * What is wrong with the certificate, without the advice Node 24 and later append to it ("; if the
 * root CA is installed locally, try running Node.js with --use-system-ca"): the check's next step
 * gives regwatch's own, in its own words.
 */
function certificateProblem(message: string): string {
  return message.replace(/; if the root CA is installed locally.*$/s, "");
}

/** Node's codes for a certificate that does not verify (self-signed, expired, another name, unknown issuer). */
function isCertificateError(code: string | undefined): boolean {
  return code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code);
}

export interface FileOriginFacts {
  origin: string;
  watchOrigin: string | undefined;
  /** The root of the origin asked for; for the watch origin itself, the list read. */
  probe: Probe | undefined;
  /** A request that reached the origin carried the key or the client id. */
  credentialsSent: boolean;
  fetchFilesNone: boolean;
}

export function judgeFileOrigin(f: FileOriginFacts): CheckResult {
  const name = `file origin ${f.origin}`;
  const unused = f.fetchFilesNone ? " (REGWATCH_FETCH_FILES=none: no file is fetched now)" : "";
  const reachNext =
    "check REGWATCH_FILE_ORIGINS and that this machine reaches the origin (DNS, firewall, proxy)";
  if (!f.probe || f.probe.kind === "failed")
    return fail(name, `not reachable: ${f.probe?.error.message ?? "not asked"}${unused}`, reachNext);
  if (f.origin === f.watchOrigin) {
    return ok(
      name,
      `the watch interface's own origin (reached): files there get the key, as the watch interface does${unused}`,
    );
  }
  if (f.credentialsSent) {
    return fail(
      name,
      `the key or the client id was sent to ${f.origin}, which is not the watch interface's origin`,
      "report this as a bug of regwatch; until fixed, keep this origin out of REGWATCH_FILE_ORIGINS",
    );
  }
  const keyRule = `the key was not sent (regwatch sends it to ${f.watchOrigin ?? "the watch origin"} only)`;
  const reached = `reached (HTTP ${f.probe.answer.status} to GET /); ${keyRule}${unused}`;
  if (
    new URL(f.origin).protocol === "http:" &&
    !/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|$)/.test(f.origin)
  )
    return warn(
      name,
      `${reached}; files come over plain http`,
      "list the https:// origin if the registry serves one",
    );
  return ok(name, reached);
}

function serverOf(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const port = url.port || (url.protocol === "smtps:" ? "465" : "587");
  return `${url.protocol}//${url.hostname}:${port}`;
}
