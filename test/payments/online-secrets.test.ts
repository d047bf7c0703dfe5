/**
 * A hostile search server that echoes the API key in its error body: the row says it could not
 * be checked, and the key appears nowhere in what the command prints.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const KEY = "search-key-3f9a7c21e5";
let test: TestDatabase;
let server: Server;
let url: string;
let dir: string;
const seen: string[] = [];

beforeAll(async () => {
  test = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-payments-"));
  server = createServer((req, res) => {
    seen.push(req.url ?? "");
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ message: `api key ${req.headers["x-api-key"]} may not search bank accounts` }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("scrubs the key from a server's error text and says the row was not checked online", async () => {
  const file = path.join(dir, "batch.csv");
  await writeFile(file, "tax_id,bank_account\n12345676,11773016-11111018\n");
  const env = { DATABASE_URL: test.url, REGWATCH_SEARCH_URL: url, REGWATCH_SEARCH_API_KEY: KEY };
  for (const format of ["--json", "--csv", "--record"]) {
    const result = await runCli(["payments", "check", file, "--online", format], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("not checked online: the search failed");
    expect(result.stdout).toContain("[redacted]");
    expect(result.stdout + result.stderr).not.toContain(KEY);
  }
  // One request per run: a 400 is not retried.
  expect(seen).toEqual(Array(3).fill("/v1/bank-accounts?value=11773016-11111018"));
  const [row] = await test.db.sql<{ detail: string }[]>`select detail from regwatch.payment_checks`;
  expect(row?.detail).toContain("[redacted]");
  expect(row?.detail).not.toContain(KEY);
});
