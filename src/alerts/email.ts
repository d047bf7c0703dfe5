/**
 * E-mail channel through SMTP (nodemailer). The reply code decides: 2xx sent, 4xx and
 * connection problems retried, 5xx dead. The SMTP password is in the URL from the environment
 * only, and is scrubbed from every reply and error that is stored or printed.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { redactError, redactSecrets } from "../secrets.ts";
import type { EmailContent } from "./message.ts";
import { type AttemptOutcome, classifySmtpCode } from "./retry-policy.ts";

export interface EmailOptions {
  smtpUrl: string;
  from: string;
  timeoutMs: number;
}

export function createMailer(options: EmailOptions): Transporter {
  return nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  } as Parameters<typeof nodemailer.createTransport>[0]);
}

export async function sendEmail(
  mailer: Transporter,
  message: { to: string; messageId: string; content: EmailContent; from: string },
): Promise<AttemptOutcome> {
  try {
    const info = await mailer.sendMail({
      from: message.from,
      to: message.to,
      subject: message.content.subject,
      text: message.content.text,
      html: message.content.html,
      // The same Message-ID on every retry lets mail systems drop a duplicate.
      messageId: `<${message.messageId}@regwatch>`,
      headers: { "X-Regwatch-Message-Id": message.messageId },
    });
    const reply = redactSecrets(String(info.response ?? ""));
    return { kind: "sent", httpStatus: Number.parseInt(reply, 10) || undefined, reply };
  } catch (error) {
    const smtp = error as { responseCode?: number; response?: string; code?: string };
    const reply = smtp.response ? redactSecrets(smtp.response) : undefined;
    const family = classifySmtpCode(smtp.responseCode);
    const what = smtp.responseCode
      ? `SMTP server answered ${smtp.responseCode}`
      : `SMTP server not reachable${smtp.code ? ` (${smtp.code})` : ""}`;
    const detail = `${what}: ${reply ?? redactError(error)}`;
    return family === "dead"
      ? { kind: "dead", httpStatus: smtp.responseCode, reply, error: detail }
      : { kind: "retry", httpStatus: smtp.responseCode, reply, error: detail };
  }
}
