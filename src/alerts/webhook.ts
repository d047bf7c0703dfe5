/**
 * Webhook channel: a POST signed per Standard Webhooks (webhook-id, webhook-timestamp,
 * webhook-signature over `id.timestamp.body`). Redirects are not followed (undici's request does
 * not follow them), every attempt has a time limit, and the receiver's answer is classified.
 */
import "../api/wasm-baseline.ts";
import { Agent, request } from "undici";
import { requirePackage } from "../require-package.ts";
import { redactError, redactSecrets } from "../secrets.ts";
import { ALLOW_PRIVATE as ALLOW, insideRefusal, outsideLookup, privateAddress } from "./private-targets.ts";
import { type AttemptOutcome, classifyHttpStatus, parseRetryAfter } from "./retry-policy.ts";

const REPLY_BYTES = 1024;

export interface WebhookMessage {
  url: string;
  messageId: string;
  body: string;
  /** Time of this attempt: the signature's timestamp. */
  now: Date;
}

export interface WebhookOptions {
  secret: string;
  timeoutMs: number;
  /** The send's overall deadline (inside its delivery lease): the request is aborted when it fires. */
  signal?: AbortSignal;
  /** REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: loopback and private receivers are sent to as well. */
  allowPrivate?: boolean;
}

/** Connections whose every resolved address was checked to be outside, made once per process. */
let outsideAgent: Agent | undefined;

function outsideDispatcher(): Agent {
  outsideAgent ??= new Agent({ connect: { lookup: outsideLookup() } });
  return outsideAgent;
}

export async function sendWebhook(message: WebhookMessage, options: WebhookOptions): Promise<AttemptOutcome> {
  // Loaded at the first webhook a process sends (a sync without webhook rules never needs it).
  const { Webhook } = requirePackage<typeof import("standardwebhooks")>("standardwebhooks");
  const signature = new Webhook(options.secret).sign(message.messageId, message.now, message.body);
  // An address inside is refused for good: retrying would not change where it points.
  // An IP address is checked here (a connection to it asks no lookup); a name when it is resolved.
  if (!options.allowPrivate) {
    const host = new URL(message.url).hostname.replace(/^\[|\]$/g, "");
    if (privateAddress(host))
      return {
        kind: "dead",
        error: `${host} is a loopback, link-local, private or multicast address: not sent (set ${ALLOW}=true to allow it)`,
      };
  }
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(message.url, {
      ...(options.allowPrivate ? {} : { dispatcher: outsideDispatcher() }),
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "regwatch-alerts",
        "webhook-id": message.messageId,
        "webhook-timestamp": String(Math.floor(message.now.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body: message.body,
      signal: options.signal
        ? AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal])
        : AbortSignal.timeout(options.timeoutMs),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  } catch (error) {
    const inside = insideRefusal(error);
    if (inside) return { kind: "dead", error: inside.message };
    return { kind: "retry", error: `no answer from the webhook: ${describeNetworkError(error)}` };
  }
  const status = response.statusCode;
  const reply = redactSecrets(`${status} ${await readStart(response.body)}`.trim());
  const family = classifyHttpStatus(status);
  if (family === "sent") return { kind: "sent", httpStatus: status, reply };
  if (family === "retry") {
    const header = response.headers["retry-after"];
    const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, message.now);
    return {
      kind: "retry",
      httpStatus: status,
      reply,
      retryAfterMs,
      error: `webhook answered HTTP ${status}`,
    };
  }
  const location = response.headers.location;
  const error =
    status >= 300 && status < 400
      ? `webhook answered HTTP ${status} (redirect to ${redactSecrets(String(location ?? "nowhere"))} not followed: fix the rule's target)`
      : `webhook refused the message with HTTP ${status}`;
  return { kind: "dead", httpStatus: status, reply, error };
}

/** The first bytes of a reply, for the operator; the rest is discarded. */
async function readStart(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= REPLY_BYTES) break;
    }
  } catch {
    // A reply cut short says as much as its start; the status decides.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, REPLY_BYTES).toString("utf8").replace(/\s+/g, " ").trim();
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return "timed out";
  const code = (error as { code?: string })?.code;
  return code ? `${code} ${redactError(error)}` : redactError(error);
}
