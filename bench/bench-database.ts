/**
 * The Postgres a benchmark runs on: DATABASE_URL's server, else an embedded one in a temp dir
 * (removed when stopped), and a freshly migrated database of a given name on it.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startEmbedded } from "../src/db/embedded.ts";
import { runMigrations } from "../src/db/migrate.ts";

export async function benchServer(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-bench-"));
  await chmod(dir, 0o755);
  const embedded = await startEmbedded(dir);
  return {
    url: embedded.url,
    stop: async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Drops and recreates database `name` on the server, migrated; its URL. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await runMigrations(url.toString());
  return url.toString();
}
