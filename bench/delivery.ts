/**
 * Delivery throughput (issue 26): 1,000 alerts, one message each, to a local webhook receiver that
 * answers after 50 ms; once healthy, once answering 500 to 20% of attempts at random (seeded).
 * `alerts deliver` passes (backoff ignored) run until every message is sent; the figure is alerts
 * per second of wall time, claim, send and record included.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { deliverAlerts } from "../src/alerts/deliver.ts";
import { insertAlertRule } from "../src/alerts/sql/rules.ts";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/connect.ts";
import { silentLogger } from "../src/logger.ts";
import { finishRun, startRun } from "../src/run/runs.ts";

const SECRET = "whsec_YmVuY2gtZGVsaXZlcnktc2VjcmV0LTAxMjM0NTY3";

export interface DeliveryBench {
  alerts: number;
  latencyMs: number;
  databaseUrl: string;
}

/** mulberry32: the same failures on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

async function receiver(latencyMs: number, failShare: number) {
  const random = seeded(26);
  let attempts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      attempts++;
      const status = random() < failShare ? 500 : 200;
      setTimeout(() => res.writeHead(status).end(), latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    attempts: () => attempts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function scenario(p: DeliveryBench, failShare: number, name: string) {
  // In the account's schema, as the product's connections (deliverAlerts names no schema).
  const db = await openDatabase({ databaseUrl: p.databaseUrl, dataDir: "" }, { max: 8 });
  const sql = db.sql;
  const hook = await receiver(p.latencyMs, failShare);
  try {
    await sql`delete from regwatch.alert_rules`;
    await insertAlertRule(sql, {
      name,
      channel: "webhook",
      target: hook.url,
      lists: [],
      headings: [],
      digest: false,
    });
    const runId = await startRun(sql, "sync", "cli", { options: { kind: "sync" } });
    await sql`
      insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw)
      select lpad((70000000 + g)::text, 8, '0'), date '2026-11-20', 'registry',
             '/bench/' || ${name} || '/' || g || '.json', array['seat'], '{}'
      from generate_series(1, ${p.alerts}) g`;
    await sql`insert into regwatch.watch_lists (list_key, list_name) values ('bench', 'bench') on conflict do nothing`;
    await sql`
      insert into regwatch.change_sources (change_id, list_key)
      select id, 'bench' from regwatch.changes where path like ${`/bench/${name}/%`}`;
    await finishRun(sql, runId, "ok", { options: { kind: "sync" } });
    // The receiver listens on 127.0.0.1: private targets are allowed explicitly.
    const config = {
      ...loadConfig({ REGWATCH_WEBHOOK_SECRET: SECRET, REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: "true" }),
      alertMaxAttempts: 50,
    };
    const deps = { sql, config, log: silentLogger };
    await deliverAlerts(deps, { raiseOnly: true });
    const started = performance.now();
    let passes = 0;
    for (;;) {
      passes++;
      await deliverAlerts(deps, { ignoreBackoff: true });
      const [left] = await sql<{ n: number }[]>`
        select count(*)::int as n from regwatch.alert_deliveries where status = 'pending'`;
      if (left!.n === 0 || passes >= 50) break;
    }
    const seconds = (performance.now() - started) / 1000;
    const [sent] = await sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.alert_deliveries where status = 'sent'`;
    return { perSecond: Math.round((sent!.n / seconds) * 10) / 10, passes, attempts: hook.attempts() };
  } finally {
    await hook.close();
    await db.close();
  }
}

export async function deliveryThroughput(p: DeliveryBench): Promise<Record<string, number>> {
  const healthy = await scenario(p, 0, "healthy");
  const flaky = await scenario(p, 0.2, "flaky");
  return {
    alerts_per_s: healthy.perSecond,
    alerts_per_s_flaky: flaky.perSecond,
    delivery_alerts: p.alerts,
    delivery_latency_ms: p.latencyMs,
    delivery_passes_flaky: flaky.passes,
    delivery_attempts_flaky: flaky.attempts,
  };
}
