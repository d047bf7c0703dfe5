/**
 * E-mail channel through SMTP (nodemailer). The reply code decides: 2xx sent, 4xx and
 * connection problems retried, 5xx dead. nodemailer's timeouts bound each step; the caller's
 * signal bounds the whole transfer (its connection is closed when it fires: a retry). The SMTP password is in the URL from the environment
 * only, and is scrubbed from every reply and error that is stored or printed.
 */
import type { Transporter } from "nodemailer";
import { redactError, redactSecrets } from "../secrets.ts";
import type { EmailContent } from "./message.ts";
import { ALLOW_PRIVATE, insideRecipient } from "./private-targets.ts";
import { type AttemptOutcome, classifySmtpCode } from "./retry-policy.ts";

export interface EmailOptions {
  smtpUrl: string;
  from: string;
  timeoutMs: number;
}

/**
 * An SMTP transport. nodemailer is loaded here, at the first mailer a process makes: a sync or a
 * backfill without e-mail rules never needs its code (about 0.6 MB of it).
 */
export async function createMailer(options: EmailOptions): Promise<Transporter> {
  const { default: nodemailer } = await import("nodemailer");
  return nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  } as Parameters<typeof nodemailer.createTransport>[0]);
}

/**
 * A delivery pass's mailer, made at its first e-mail: a pass with none never makes one, and a
 * mailer that cannot be made fails each e-mail of the pass (each charged a failed attempt).
 */
export interface MailerOnDemand {
  get(): Promise<Transporter>;
  close(): void;
}

export function mailerOnDemand(options: EmailOptions): MailerOnDemand {
  let made: Promise<Transporter> | undefined;
  return {
    get: () => {
      made ??= createMailer(options);
      return made;
    },
    close: () => {
      void made?.then(
        (mailer) => mailer.close(),
        () => {},
      );
    },
  };
}

/** What one attempt did for each recipient: "sent", or the server's refusal. */
export type RecipientOutcomes = Record<string, string>;

export type EmailOutcome = AttemptOutcome & { recipients: RecipientOutcomes };

/** The addresses of an e-mail rule's target (one, or several separated by commas). */
export function recipientsOf(target: string): string[] {
  return target
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a.length > 0);
}

/** Recipients a retry still goes to: those neither accepted nor refused for good. */
export function recipientsDue(target: string, before: RecipientOutcomes | null): string[] {
  return recipientsOf(target).filter((a) => !before?.[a] || before[a]!.startsWith("retry"));
}

/**
 * Sends to `to` and reports each recipient: a server that accepts some recipients and refuses
 * others has the message for the accepted ones only. The whole message is sent when every
 * recipient is accepted; retried (for the temporarily refused only) while any was refused with
 * 4xx; dead when the rest were refused for good.
 */
export async function sendEmail(
  mailer: Transporter,
  message: { to: string | string[]; messageId: string; content: EmailContent; from: string },
  signal?: AbortSignal,
): Promise<EmailOutcome> {
  const to = typeof message.to === "string" ? recipientsOf(message.to) : message.to;
  try {
    const info = await mailer.sendMail({
      from: message.from,
      to,
      subject: message.content.subject,
      text: message.content.text,
      html: message.content.html,
      // The same Message-ID on every retry lets mail systems drop a duplicate.
      messageId: `<${message.messageId}@regwatch>`,
      headers: { "X-Regwatch-Message-Id": message.messageId },
      // nodemailer closes the connection when it fires, whichever step the transfer is at.
      ...(signal ? { signal } : {}),
    } as Parameters<Transporter["sendMail"]>[0]);
    const reply = redactSecrets(String(info.response ?? ""));
    const refused = refusals((info as { rejectedErrors?: unknown[] }).rejectedErrors, info.rejected);
    const recipients: RecipientOutcomes = {};
    for (const address of to) recipients[address] = refused.get(address) ?? "sent";
    if (refused.size === 0)
      return { kind: "sent", httpStatus: Number.parseInt(reply, 10) || undefined, reply, recipients };
    return partial(recipients, reply);
  } catch (error) {
    const smtp = error as {
      responseCode?: number;
      response?: string;
      code?: string;
      rejectedErrors?: unknown[];
    };
    const reply = smtp.response ? redactSecrets(smtp.response) : undefined;
    if (smtp.code === "EENVELOPE" && smtp.rejectedErrors?.length) {
      const refused = refusals(smtp.rejectedErrors, []);
      const recipients: RecipientOutcomes = {};
      for (const address of to) recipients[address] = refused.get(address) ?? "retry: not accepted";
      return partial(recipients, reply);
    }
    if (smtp.code === "EABORT") {
      const detail =
        "SMTP transfer aborted: it did not end within its deadline (the request timeout, inside the delivery lease)";
      const recipients: RecipientOutcomes = {};
      for (const address of to) recipients[address] = `retry: ${detail}`;
      return { kind: "retry", error: detail, recipients };
    }
    const family = classifySmtpCode(smtp.responseCode);
    const what = smtp.responseCode
      ? `SMTP server answered ${smtp.responseCode}`
      : `SMTP server not reachable${smtp.code ? ` (${smtp.code})` : ""}`;
    const detail = `${what}: ${reply ?? redactError(error)}`;
    const recipients: RecipientOutcomes = {};
    for (const address of to) recipients[address] = `${family === "dead" ? "refused" : "retry"}: ${detail}`;
    return family === "dead"
      ? { kind: "dead", httpStatus: smtp.responseCode, reply, error: detail, recipients }
      : { kind: "retry", httpStatus: smtp.responseCode, reply, error: detail, recipients };
  }
}

/**
 * sendEmail to the recipients outside: one whose domain is an address literal inside (a@[127.0.0.1])
 * is refused for good unless `allowPrivate`. The SMTP server itself is the operator's, not checked.
 */
export async function sendEmailOutside(
  mailer: () => Promise<Transporter>,
  message: { to: string[]; messageId: string; content: EmailContent; from: string },
  signal: AbortSignal | undefined,
  allowPrivate: boolean,
): Promise<EmailOutcome> {
  const refused: RecipientOutcomes = {};
  for (const address of allowPrivate ? [] : message.to) {
    const why = insideRecipient(address);
    if (why) refused[address] = `refused: ${why}: not sent (set ${ALLOW_PRIVATE}=true to allow it)`;
  }
  const to = message.to.filter((a) => !refused[a]);
  if (to.length === 0) return partial(refused, undefined);
  const outcome = await sendEmail(await mailer(), { ...message, to }, signal);
  if (Object.keys(refused).length === 0) return outcome;
  return partial({ ...outcome.recipients, ...refused }, outcome.reply);
}

/** Each refused recipient with "retry: …" (4xx) or "refused: …" (5xx). */
function refusals(errors: unknown[] | undefined, rejected: unknown[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of errors ?? []) {
    const r = e as { recipient?: string; responseCode?: number; response?: string };
    if (!r.recipient) continue;
    const family = classifySmtpCode(r.responseCode);
    const why = redactSecrets(r.response ?? `SMTP ${r.responseCode ?? "error"}`);
    out.set(r.recipient, `${family === "dead" ? "refused" : "retry"}: ${why}`);
  }
  for (const r of rejected ?? []) {
    const address = typeof r === "string" ? r : (r as { address?: string }).address;
    if (address && !out.has(address)) out.set(address, "retry: refused by the server");
  }
  return out;
}

function partial(recipients: RecipientOutcomes, reply: string | undefined): EmailOutcome {
  const retrying = Object.entries(recipients).filter(([, o]) => o.startsWith("retry"));
  const refused = Object.entries(recipients).filter(([, o]) => o.startsWith("refused"));
  const names = (list: [string, string][]) => list.map(([a, o]) => `${a} (${o})`).join(", ");
  if (retrying.length > 0)
    return {
      kind: "retry",
      reply,
      recipients,
      error: `not accepted for ${names(retrying)}; retried for them only`,
    };
  return { kind: "dead", reply, recipients, error: `refused for good for ${names(refused)}` };
}
