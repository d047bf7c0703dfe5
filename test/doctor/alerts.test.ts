/**
 * The doctor's alert-target checks against a real SMTP server (smtp-server) and a bare HTTP
 * receiver: reached without a message or a request, an SMTP server that refuses the connection or
 * the login, one that is absent, a webhook receiver nobody answers at, and missing settings.
 */
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { SECRET } from "../alerts/harness.ts";
import { closedPort, doctorWith, doctorWorld, notOk, resultOf } from "./harness.ts";

const world = doctorWorld(74, {
  REGWATCH_WEBHOOK_SECRET: SECRET,
  REGWATCH_MAIL_FROM: "regwatch@example.com",
});
const env = world.env;

/** An SMTP server on a free port; `messages` counts what reached its DATA phase. */
async function smtp(options: SMTPServerOptions) {
  const state = { messages: 0 };
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      state.messages++;
      stream.resume();
      stream.on("end", () => callback());
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function withRules(
  rules: { name: string; channel: "email" | "webhook"; target: string }[],
  body: () => Promise<void>,
) {
  for (const r of rules)
    await insertAlertRule(world.tdb.db.sql, { ...r, lists: [], headings: [], digest: false });
  try {
    await body();
  } finally {
    await world.tdb.db.sql`delete from regwatch.alert_rules`;
  }
}

describe("regwatch doctor and the alert targets", () => {
  it("greets the SMTP server and connects to each webhook receiver, sending neither a message nor a request", async () => {
    const server = await smtp({ authOptional: true });
    world.hostile.seen.length = 0;
    try {
      await withRules(
        [
          { name: "ops-mail", channel: "email", target: "ops@example.com" },
          {
            name: "ops-hook",
            channel: "webhook",
            target: `${world.hostile.origin}/hooks/regwatch?token=abc123`,
          },
          { name: "bi-hook", channel: "webhook", target: `${world.hostile.origin}/other` },
        ],
        async () => {
          const results = await doctorWith(env({ REGWATCH_SMTP_URL: `smtp://127.0.0.1:${server.port}` }));
          expect(notOk(results)).toEqual([]);
          expect(resultOf(results, "e-mail").message).toBe(
            `smtp://127.0.0.1:${server.port} answered EHLO (1 e-mail rule(s)); no message was sent`,
          );
          const hook = resultOf(results, `webhook ${world.hostile.origin}`);
          expect(hook.message).toBe("connected (rule(s) bi-hook, ops-hook); no request was sent");
          expect(JSON.stringify(results)).not.toContain("abc123");
        },
      );
      expect(server.state.messages).toBe(0);
      expect(world.hostile.seen).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("fails an SMTP server that refuses the connection", async () => {
    const server = await smtp({
      onConnect: (_session, callback) => callback(new Error("this server takes no mail from you")),
    });
    try {
      const results = await doctorWith(env({ REGWATCH_SMTP_URL: `smtp://127.0.0.1:${server.port}` }));
      expect(notOk(results)).toEqual(["e-mail: fail"]);
      const email = resultOf(results, "e-mail");
      expect(email.message).toMatch(
        new RegExp(`^smtp://127.0.0.1:${server.port} refused: .*this server takes no mail from you`),
      );
      expect(email.next).toMatch(/^check REGWATCH_SMTP_URL/);
    } finally {
      await server.close();
    }
  });

  it("fails an SMTP login that is refused, and never prints the password", async () => {
    const server = await smtp({
      allowInsecureAuth: true,
      onAuth: (_auth, _session, callback) => callback(new Error("Invalid username or password")),
    });
    try {
      const results = await doctorWith(
        env({ REGWATCH_SMTP_URL: `smtp://alerts:pa55-w0rd-xyz@127.0.0.1:${server.port}` }),
      );
      expect(notOk(results)).toEqual(["e-mail: fail"]);
      const email = resultOf(results, "e-mail");
      expect(email.message).toMatch(/refused: .*Invalid username or password/);
      expect(email.next).toBe("check the user and password in REGWATCH_SMTP_URL");
      expect(JSON.stringify(results)).not.toContain("pa55-w0rd-xyz");
    } finally {
      await server.close();
    }
  });

  it("fails an SMTP server that is not there", async () => {
    const port = await closedPort();
    const email = resultOf(
      await doctorWith(env({ REGWATCH_SMTP_URL: `smtp://127.0.0.1:${port}` })),
      "e-mail",
    );
    expect(email.status).toBe("fail");
    expect(email.message).toMatch(new RegExp(`^smtp://127.0.0.1:${port} not reachable: .*ECONNREFUSED`));
  });

  it("fails e-mail rules without an SMTP server, and webhook rules without the secret", async () => {
    await withRules(
      [
        { name: "ops-mail", channel: "email", target: "ops@example.com" },
        { name: "ops-hook", channel: "webhook", target: `${world.hostile.origin}/hook` },
      ],
      async () => {
        const results = await doctorWith(env({ REGWATCH_WEBHOOK_SECRET: undefined }));
        expect(notOk(results)).toEqual(["e-mail: fail", "webhooks: fail"]);
        expect(resultOf(results, "e-mail").message).toBe(
          "REGWATCH_SMTP_URL not set (1 e-mail rule(s)): e-mail messages wait until it is",
        );
        expect(resultOf(results, "webhooks").message).toBe(
          "REGWATCH_WEBHOOK_SECRET is not set: webhook messages wait until it is",
        );
      },
    );
  });

  it("fails a webhook receiver nobody answers at", async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    await withRules([{ name: "gone", channel: "webhook", target: `${dead}/hook` }], async () => {
      const results = await doctorWith(env());
      expect(notOk(results)).toEqual([`webhook ${dead}: fail`]);
      const hook = resultOf(results, `webhook ${dead}`);
      expect(hook.message).toMatch(/^not reachable: connect ECONNREFUSED .* \(rule\(s\) gone\)$/);
      expect(hook.next).toMatch(/regwatch alerts rule list/);
    });
  });

  it("fails a webhook receiver whose TLS certificate does not verify, before any request", async () => {
    const fixtures = new URL("./fixtures/", import.meta.url);
    const server = createTlsServer({
      key: await readFile(new URL("self-signed.key", fixtures)),
      cert: await readFile(new URL("self-signed.crt", fixtures)),
    });
    let requests = 0;
    server.on("secureConnection", (socket) => socket.on("data", () => requests++));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await withRules([{ name: "tls-hook", channel: "webhook", target: `${origin}/hook` }], async () => {
        const results = await doctorWith(env());
        expect(notOk(results)).toEqual([`webhook ${origin}: fail`]);
        const hook = resultOf(results, `webhook ${origin}`);
        expect(hook.message).toMatch(
          /^its TLS certificate does not verify: self[- ]signed certificate \(rule\(s\) tls-hook\)$/,
        );
        expect(hook.next).toMatch(/NODE_EXTRA_CA_CERTS.*--use-system-ca/);
      });
      expect(requests).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
