/**
 * The daemon's HTTP side: /healthz (the process answers), /readyz (the database answers and every
 * migration is applied; 503 otherwise), /metrics (Prometheus text format). Probes use a small
 * client of their own with short timeouts, so a database that is down makes /readyz say so
 * within seconds instead of waiting on the job's connection pool.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { poolerOptions, type Sql } from "../db/connect.ts";
import { migrationsCurrent } from "../db/migrate.ts";
import { scopedSql } from "../db/scoped-sql.ts";
import { coerceError } from "../errors.ts";
import { listenError } from "../listen-error.ts";
import type { Logger } from "../logger.ts";
import type { DaemonMetrics } from "./metrics.ts";

const PROBE_TIMEOUT_MS = 3000;

/** A two-connection client for health checks and scrape-time reads. */
export class DatabaseProbe {
  /** The account's view of the probe's connections (statements name its schema). */
  readonly sql: Sql;

  constructor(
    url: string,
    private readonly schema: string,
  ) {
    const pool = postgres(url, {
      ...poolerOptions(url),
      max: 2,
      connect_timeout: PROBE_TIMEOUT_MS / 1000,
      idle_timeout: 30,
      onnotice: () => {},
      connection: {
        application_name: `regwatch/${process.pid}/probe`,
        statement_timeout: PROBE_TIMEOUT_MS,
      },
    });
    this.sql = scopedSql(pool, schema);
  }

  /** Null when ready, else why not. */
  async notReadyReason(): Promise<string | null> {
    try {
      const current = await withTimeout(migrationsCurrent(this.sql, this.schema), PROBE_TIMEOUT_MS);
      return current ? null : "migrations pending";
    } catch (error) {
      return `database unreachable: ${coerceError(error).message}`;
    }
  }

  close(): Promise<void> {
    return this.sql.end({ timeout: 2 });
  }
}

export interface HealthServer {
  port: number;
  /** From now on /readyz answers 503, so a load balancer stops sending work while the daemon stops. */
  markStopping(): void;
  close(): Promise<void>;
}

export async function startHealthServer(options: {
  port: number;
  /** Interface to listen on (REGWATCH_HTTP_HOST): 127.0.0.1 by default, 0.0.0.0 in a container. */
  host: string;
  probe: DatabaseProbe;
  metrics: DaemonMetrics;
  log: Logger;
  /** Why the job side is not ready (stopping, or a job stuck), else null. */
  jobNotReady?: () => string | null;
}): Promise<HealthServer> {
  const { probe, metrics, log } = options;
  let stopping = false;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    const reply = (status: number, body: string, type = "text/plain; charset=utf-8") => {
      response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      response.end(body);
    };
    if (request.method !== "GET" && request.method !== "HEAD") return reply(405, "method not allowed\n");
    if (path === "/healthz") return reply(200, "ok\n");
    if (path === "/readyz") {
      const jobReason = options.jobNotReady?.() ?? null;
      if (jobReason !== null) return reply(503, `not ready: ${jobReason}\n`);
      if (stopping) return reply(503, "not ready: stopping\n");
      probe.notReadyReason().then(
        (reason) => (reason === null ? reply(200, "ready\n") : reply(503, `not ready: ${reason}\n`)),
        (error) => reply(503, `not ready: ${coerceError(error).message}\n`),
      );
      return;
    }
    if (path === "/metrics") {
      metrics.render().then(
        ({ contentType, body }) => reply(200, body, contentType),
        (error) => {
          log.warn({ err: coerceError(error).message }, "metrics could not be rendered");
          reply(500, "metrics failed\n");
        },
      );
      return;
    }
    reply(404, "not found: try /healthz, /readyz or /metrics\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        listenError(error, {
          service: "the health and metrics server",
          host: options.host,
          port: options.port,
          portVariable: "REGWATCH_HTTP_PORT",
          hostVariable: "REGWATCH_HTTP_HOST",
        }),
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    markStopping: () => {
      stopping = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
