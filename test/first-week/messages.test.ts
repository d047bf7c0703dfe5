/**
 * Issue 36, the messages an operator meets on the way to production: a database that never
 * answered is named as such (where regwatch tried, never the password), and lines that report
 * success carry no `regwatch:` prefix, which is kept for failures.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";

/** A port on loopback that nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a database that never answered", () => {
  it("says it could not connect, to which host and port, and what to check, never the password", async () => {
    const port = await closedPort();
    const result = await runCli(["status"], {
      DATABASE_URL: `postgres://regwatch:sup3r-secret@127.0.0.1:${port}/regwatch`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`could not connect to the database at 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(result.stderr).toContain("check that Postgres is running there");
    expect(result.stderr).not.toContain("was lost");
    expect(result.stderr).not.toContain("sup3r-secret");
  });

  it("names a host that does not resolve", async () => {
    const result = await runCli(["status"], {
      DATABASE_URL: "postgres://regwatch:sup3r-secret@no-such-host.invalid:5432/regwatch",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the host no-such-host.invalid was not found");
    expect(result.stderr).not.toContain("sup3r-secret");
  });
});
