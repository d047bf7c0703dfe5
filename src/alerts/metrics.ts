/**
 * Alert metrics, read from the database at scrape time so they count the work of every process
 * (daemon, `alerts deliver`, a CLI sync): regwatch_alerts_raised_total{rule},
 * regwatch_alert_deliveries_total{channel,outcome} (sent or dead), regwatch_alert_backlog,
 * regwatch_alert_sending (messages a deliverer holds under a lease), and whether delivery works:
 * regwatch_alert_delivery_pass_failures_total and regwatch_alert_oldest_pending_seconds.
 */
import { Counter, Gauge, type Registry } from "prom-client";
import type { Sql } from "../db/connect.ts";
import { redactSecrets } from "../secrets.ts";
import { deliveryHealth } from "./sql/delivery-health.ts";
import { alertTotals, outboxCounts } from "./sql/outbox.ts";

export function registerAlertMetrics(registry: Registry, probe: () => Promise<Sql | undefined>): void {
  const registers = [registry];
  let cached: { at: number; value: Promise<Snapshot | undefined> } | undefined;
  const read = () => {
    if (!cached || Date.now() - cached.at > 2000) cached = { at: Date.now(), value: snapshot(probe) };
    return cached.value;
  };
  const raised = new Counter({
    name: "regwatch_alerts_raised_total",
    help: "Alerts raised, by rule (alerts stored in the database).",
    labelNames: ["rule"],
    registers,
    collect: async () => {
      const s = await read();
      if (!s) return;
      raised.reset();
      for (const r of s.totals.raised) raised.inc({ rule: redactSecrets(r.rule) }, r.count);
    },
  });
  const deliveries = new Counter({
    name: "regwatch_alert_deliveries_total",
    help: "Alert messages finished, by channel and outcome (sent, dead).",
    labelNames: ["channel", "outcome"],
    registers,
    collect: async () => {
      const s = await read();
      if (!s) return;
      deliveries.reset();
      for (const d of s.totals.deliveries)
        deliveries.inc({ channel: d.channel, outcome: d.outcome }, d.count);
    },
  });
  const backlog = new Gauge({
    name: "regwatch_alert_backlog",
    help: "Alert messages waiting to be sent or retried.",
    registers,
    collect: async () => {
      const s = await read();
      if (s) backlog.set(s.counts.pending);
    },
  });
  const passFailures = new Counter({
    name: "regwatch_alert_delivery_pass_failures_total",
    help: "Alert delivery passes that failed with an error of regwatch's own (every process's; the last error is in regwatch status).",
    registers,
    collect: async () => {
      const s = await read();
      if (!s) return;
      passFailures.reset();
      passFailures.inc(s.health?.failuresTotal ?? 0);
    },
  });
  const oldestPending = new Gauge({
    name: "regwatch_alert_oldest_pending_seconds",
    help: "Age of the oldest alert message waiting to be sent or retried, in seconds (0 when none waits).",
    registers,
    collect: async () => {
      const s = await read();
      if (s) oldestPending.set(s.counts.oldestPendingSeconds);
    },
  });
  const sending = new Gauge({
    name: "regwatch_alert_sending",
    help: "Alert messages a deliverer holds under an unexpired lease (being sent now).",
    registers,
    collect: async () => {
      const s = await read();
      if (s) sending.set(s.counts.sending);
    },
  });
}

interface Snapshot {
  totals: Awaited<ReturnType<typeof alertTotals>>;
  counts: Awaited<ReturnType<typeof outboxCounts>>;
  health: Awaited<ReturnType<typeof deliveryHealth>>;
}

async function snapshot(probe: () => Promise<Sql | undefined>): Promise<Snapshot | undefined> {
  try {
    const sql = await probe();
    if (!sql) return undefined;
    const [totals, counts, health] = await Promise.all([
      alertTotals(sql),
      outboxCounts(sql),
      deliveryHealth(sql),
    ]);
    return { totals, counts, health };
  } catch {
    return undefined;
  }
}
