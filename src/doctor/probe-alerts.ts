/**
 * Whether alert targets can be reached, without sending anything: the SMTP server is greeted
 * (EHLO, STARTTLS and the login when the URL carries one: nodemailer's verify) and a webhook
 * receiver gets a TCP connection, with the TLS handshake for https (its certificate checked),
 * closed before any request is written. No receiver sees a message or a request.
 */
import net from "node:net";
import tls from "node:tls";
import { createMailer } from "../alerts/email.ts";

export type Reach =
  | { reached: true; detail: string }
  | { reached: false; message: string; code?: string; responseCode?: number };

export async function verifySmtp(smtpUrl: string, timeoutMs: number): Promise<Reach> {
  const mailer = await createMailer({ smtpUrl, from: "", timeoutMs });
  try {
    await mailer.verify();
    const login = new URL(smtpUrl).username ? " and accepted the login" : "";
    return { reached: true, detail: `answered EHLO${login}` };
  } catch (error) {
    const e = error as { message?: string; code?: string; responseCode?: number; response?: string };
    return {
      reached: false,
      message: e.response ?? e.message ?? String(error),
      ...(e.code ? { code: e.code } : {}),
      ...(e.responseCode ? { responseCode: e.responseCode } : {}),
    };
  } finally {
    mailer.close();
  }
}

/** A connection to the host and port of `target` (and the TLS handshake for https), then closed. */
export function connectTo(target: string, timeoutMs: number): Promise<Reach> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve({ reached: false, message: "the target is not a URL" });
  }
  const secure = url.protocol === "https:";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    let settled = false;
    const socket = secure
      ? tls.connect({ host, port, ...(net.isIP(host) ? {} : { servername: host }) })
      : net.connect({ host, port });
    const finish = (reach: Reach) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(reach);
    };
    const timer = setTimeout(
      () => finish({ reached: false, message: `no connection within ${timeoutMs} ms`, code: "ETIMEDOUT" }),
      timeoutMs,
    );
    socket.once(secure ? "secureConnect" : "connect", () =>
      finish({ reached: true, detail: secure ? "connected, TLS certificate valid" : "connected" }),
    );
    socket.once("error", (error: Error & { code?: string }) =>
      finish({ reached: false, message: error.message, ...(error.code ? { code: error.code } : {}) }),
    );
  });
}
