// Scratch: payments check on 200,000 rows under different young-generation sizes (not committed).
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { localDateTime } from "./src/dates.ts";
import { openDatabase } from "./src/db/connect.ts";
import { runMigrations } from "./src/db/migrate.ts";
import { seedPayees, writeLargeBatch } from "./bench/payments-batch.ts";

const server = "postgres://postgres@127.0.0.1:5432/postgres";
const name = `flags_${process.pid}`;
const admin = postgres(server, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database "${name}"`);
const url = server.replace(/\/postgres$/, `/${name}`);
await runMigrations(url);
const db = openDatabase(url);
const today = localDateTime(new Date(), "Europe/Budapest").date;
const payees = await seedPayees(db.sql, 2000, today);
const dir = mkdtempSync(path.join(tmpdir(), "flags-"));
const file = path.join(dir, "batch.csv");
await writeLargeBatch(file, payees, 200_000);
await db.close?.();
const variants = [[], ["--max-semi-space-size=2"], ["--max-semi-space-size=8"], ["--max-semi-space-size=16"]];
for (const output of [["--json"], []]) {
  for (let round = 0; round < 3; round++) {
    for (const flags of variants) {
      const r = spawnSync("/usr/bin/time", ["-f", "%e %M", process.execPath, ...flags, "bin/regwatch.js", "payments", "check", file, ...output], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url, REGWATCH_LOG_LEVEL: "warn" },
        encoding: "utf8", maxBuffer: 1 << 30,
      });
      const [secs, kb] = r.stderr.trim().split("\n").at(-1)!.split(" ");
      console.log(`${output.join(" ") || "text"}\t${flags.join(" ") || "(default)"}\t${secs} s\t${Math.round(Number(kb) / 1024)} MB`);
    }
  }
}
await admin.unsafe(`drop database "${name}" with (force)`);
await admin.end();
process.exit(0);
