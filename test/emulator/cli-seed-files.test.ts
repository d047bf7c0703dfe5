import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAccounts } from "../../src/accounts-file.ts";
import { runCli } from "../helpers/cli.ts";
import { startEmulatorProcess } from "../helpers/emulator-process.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-emulator-files-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("regwatch emulator's --lists and --tenants files", () => {
  it("exits 64 naming a --lists entry without createdAt, before listening", async () => {
    const file = path.join(dir, "lists.json");
    await writeFile(
      file,
      JSON.stringify([
        { name: "good", createdAt: "2026-01-05" },
        { name: "suppliers", size: 3 },
      ]),
    );
    const result = await runCli(["emulator", "--port", "0", "--lists", file]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('lists[1] ("suppliers") needs createdAt');
    expect(result.stderr).not.toContain("undefined");
    expect(result.stdout).not.toContain("listening");
  });

  it("names a tenant's bad list entry by its tenant and place", async () => {
    const file = path.join(dir, "tenants-bad.json");
    await writeFile(file, JSON.stringify([{ apiKey: "k1", lists: [{ name: "x", createdAt: "soon" }] }]));
    const result = await runCli(["emulator", "--port", "0", "--tenants", file]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(
      'tenants[0].lists[0] ("x").createdAt must be YYYY-MM-DD or an ISO instant',
    );
  });

  it("prints an accounts file for its tenants that regwatch accepts, one account per key", async () => {
    const file = path.join(dir, "tenants.json");
    await writeFile(file, JSON.stringify([{ apiKey: "key-one" }, { apiKey: "key-two" }]));
    const emulator = await startEmulatorProcess(["--tenants", file, "--businesses", "200"]);
    try {
      const output = emulator.printed;
      expect(output).not.toContain("REGWATCH_API_KEY=");
      const yaml = output.slice(
        output.indexOf("accounts:"),
        output.indexOf("\n\n", output.indexOf("accounts:")),
      );
      const accounts = parseAccounts(yaml, "accounts.yaml");
      expect(accounts.map((a) => [a.name, a.apiKeyEnv, a.watchUrl])).toEqual([
        ["tenant1", "TENANT1_API_KEY", `${emulator.url}/v2`],
        ["tenant2", "TENANT2_API_KEY", `${emulator.url}/v2`],
      ]);
      expect(output).toContain("TENANT1_API_KEY=key-one");
      expect(output).toContain("TENANT2_API_KEY=key-two");
    } finally {
      await emulator.stop();
    }
  });
});
