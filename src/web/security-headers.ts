/**
 * The console's security headers: helmet's options, and the same headers for the answers given
 * before any route's hooks run (a URL the router refuses, a request Node's parser refuses), which
 * helmet's onRequest hook never sees. Every answer carries them, refusals included.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";

const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "data:"],
  fontSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  objectSrc: ["'none'"],
} satisfies Record<string, string[]>;

export const HELMET_OPTIONS = {
  global: true,
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  frameguard: { action: "deny" as const },
  referrerPolicy: { policy: "same-origin" as const },
  // Strict-Transport-Security is for a TLS proxy in front to set: the console itself speaks HTTP.
  strictTransportSecurity: false,
};

/**
 * HELMET_OPTIONS, with forms also allowed to lead to `formOrigins`: with company sign-in, the
 * identity provider's origin, where the sign-out form's answer sends the browser on.
 */
export function helmetOptions(formOrigins: readonly string[]): typeof HELMET_OPTIONS {
  if (formOrigins.length === 0) return HELMET_OPTIONS;
  const directives = { ...CSP_DIRECTIVES, formAction: [...CSP_DIRECTIVES.formAction, ...formOrigins] };
  return { ...HELMET_OPTIONS, contentSecurityPolicy: { useDefaults: false, directives } };
}

/** What helmet sets for HELMET_OPTIONS that a browser acts on, written as helmet writes it. */
export const REFUSAL_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": Object.entries(CSP_DIRECTIVES)
    .map(([name, values]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${values.join(" ")}`)
    .join(";"),
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

/**
 * Fastify's `frameworkErrors`: a URL the router refuses (a parameter longer than maxParamLength:
 * 414, a malformed escape: 400) answered in plain words with the security headers.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode ?? 400;
  const words = status === 414 ? "the address is too long" : "the address is not valid";
  void reply
    .code(status)
    .headers(REFUSAL_HEADERS)
    .type("text/plain; charset=utf-8")
    .send(`${status} ${STATUS_CODES[status] ?? ""}: ${words}\n`);
}

/**
 * Fastify's `clientErrorHandler`: what Node's parser refuses before Fastify sees a request (a
 * request line or headers beyond maxHeaderSize: 431, a timeout: 408), as Fastify's default answers
 * it, with the security headers.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const status =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const body = `${status} ${STATUS_CODES[status]}\n`;
  const headers = Object.entries({
    ...REFUSAL_HEADERS,
    "content-type": "text/plain; charset=utf-8",
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  if (socket.writable)
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.join("")}\r\n${body}`);
  socket.destroy(error);
}
