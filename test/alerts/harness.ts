/**
 * What the alert tests share: a real webhook receiver that checks every signature with the
 * standardwebhooks library, a real SMTP server (smtp-server) collecting messages, and runs with
 * changes stored the way a sync stores them (run row, changes first seen during the run, sources).
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { Webhook } from "standardwebhooks";
import type { AlertConfig } from "../../src/alerts/deliver.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import type { Sql } from "../../src/db/connect.ts";
import { finishRun, startRun } from "../../src/run/runs.ts";

export const SECRET = `whsec_${randomBytes(24).toString("base64")}`;

/**
 * Alert settings of the tests: this secret, a backoff from 1 s, five attempts, no SMTP; private
 * targets allowed, since the receivers listen on 127.0.0.1.
 */
export function alertConfig(extra: Partial<AlertConfig> = {}): AlertConfig {
  return {
    webhookSecret: SECRET,
    smtpUrl: undefined,
    mailFrom: undefined,
    alertRetryBaseMs: 1000,
    alertMaxAttempts: 5,
    alertRetryCapMs: 3_600_000,
    alertGiveUpHours: 24,
    alertTargetConcurrency: 4,
    requestTimeoutMs: 5000,
    tz: "Europe/Budapest",
    alertAllowPrivateTargets: true,
    ...extra,
  };
}

export interface Received {
  id: string;
  verified: boolean;
  verifyError?: string;
  body: { type: string; data: Record<string, unknown> };
  headers: IncomingHttpHeaders;
}

export interface Answer {
  /** 0: never answer (a receiver that hangs). */
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Sets the answer to the next requests, in order; the last one repeats. */
  answer(...answers: Answer[]): void;
  /** Called as each request arrives, before it is answered. */
  onRequest?: () => void;
  close(): Promise<void>;
}

export async function startReceiver(secret = SECRET): Promise<Receiver> {
  const received: Received[] = [];
  let answers: Answer[] = [{ status: 200 }];
  const webhook = new Webhook(secret);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      let verifyError: string | undefined;
      try {
        webhook.verify(text, req.headers as Record<string, string>);
        verified = true;
      } catch (error) {
        verifyError = (error as Error).message;
      }
      received.push({
        id: String(req.headers["webhook-id"]),
        verified,
        verifyError,
        body: JSON.parse(text),
        headers: req.headers,
      });
      receiver.onRequest?.();
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (answer.status === 0) return;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer: (...next) => {
      answers = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

export interface Mail {
  from: string;
  to: string[];
  raw: string;
}

export async function startSmtp(): Promise<{ url: string; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface StoredChange {
  taxId: string;
  date: string;
  headings: string[];
  lists: string[];
}

let pathSeq = 0;

/** A finished run whose changes were first stored during it, as a sync or backfill stores them. */
export async function storeRun(
  sql: Sql,
  kind: "sync" | "backfill",
  changes: StoredChange[],
  options: { alertHistory?: boolean } = {},
): Promise<{ runId: number; changeIds: number[] }> {
  const runOptions = { kind, ...options };
  const runId = await startRun(sql, kind, "cli", { options: runOptions });
  const changeIds: number[] = [];
  for (const c of changes) {
    for (const list of c.lists) {
      await sql`insert into regwatch.watch_lists (list_key, list_name) values (${`key-${list}`}, ${list})
                on conflict do nothing`;
    }
    const [row] = await sql<{ id: number }[]>`
      insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw)
      values (${c.taxId}, ${c.date}, 'registry', ${`/files/${++pathSeq}-${c.taxId}.json`}, ${c.headings}, '{}')
      returning id::int`;
    changeIds.push(row!.id);
    for (const list of c.lists)
      await sql`insert into regwatch.change_sources (change_id, list_key) values (${row!.id}, ${`key-${list}`})`;
  }
  await finishRun(sql, runId, "ok", { options: runOptions });
  return { runId, changeIds };
}

/**
 * A finished run in which lists report changes stored before (by another list or an earlier
 * run): only their change_sources rows are new, as when a sync re-reads a stored change.
 */
export async function reportRun(
  sql: Sql,
  kind: "sync" | "backfill",
  reports: { changeId: number; list: string }[],
  options: { alertHistory?: boolean } = {},
): Promise<{ runId: number }> {
  const runOptions = { kind, ...options };
  const runId = await startRun(sql, kind, "cli", { options: runOptions });
  for (const { changeId, list } of reports) {
    await sql`insert into regwatch.watch_lists (list_key, list_name) values (${`key-${list}`}, ${list})
              on conflict do nothing`;
    await sql`insert into regwatch.change_sources (change_id, list_key) values (${changeId}, ${`key-${list}`})
              on conflict do nothing`;
  }
  await finishRun(sql, runId, "ok", { options: runOptions });
  return { runId };
}

/** Old and new values of a heading, as the change-file parser stores them. */
export async function storeValues(
  sql: Sql,
  changeId: number,
  heading: string,
  oldValue: unknown,
  newValue: unknown,
): Promise<void> {
  await sql`
    insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path)
    select id, ${heading}, tax_id, change_date, ${sql.json(oldValue as never)}, ${sql.json(newValue as never)}, path
    from regwatch.changes where id = ${changeId}`;
}

/** A rule sending a message per change of any list and heading, without a digest, to `target`. */
export async function ruleForEveryChange(
  sql: Sql,
  target: string,
  channel: "webhook" | "notify" = "webhook",
  name = "erp",
): Promise<void> {
  await insertAlertRule(sql, { name, lists: [], headings: [], channel, target, digest: false });
}
