import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { redactJson, redactSecrets, registerSecrets } from "../src/secrets.ts";
import { runProcess } from "./helpers/cli.ts";

const RUN_TS = fileURLToPath(new URL("../bin/run-ts.js", import.meta.url));
const PROBE = fileURLToPath(new URL("./helpers/log-probe.ts", import.meta.url));

describe("secret redaction", () => {
  it("removes a key wherever it appears in a line, raw, JSON-escaped or URL-encoded", () => {
    const key = 'k3y/with"odd+chars';
    const line = JSON.stringify({ msg: `GET https://x/?k=${encodeURIComponent(key)} failed`, header: key });
    const out = redactSecrets(line, [key]);
    expect(out).not.toContain("k3y");
    expect(out).toContain("[redacted]");
  });
});

describe("registered secrets", () => {
  it("are scrubbed from text and from every string of a JSON value, base64 form included", () => {
    const key = "registered-key-123";
    registerSecrets([key]);
    expect(redactSecrets(`401: key ${key} is not valid`)).toBe("401: key [redacted] is not valid");
    const stats = { fatal: `bad ${key}`, nested: [{ [key]: Buffer.from(key).toString("base64") }], n: 3 };
    const out = JSON.stringify(redactJson(stats));
    expect(out).not.toContain(key);
    expect(out).not.toContain(Buffer.from(key).toString("base64"));
    expect(out).toContain('"n":3');
  });
});

/** The fields of the probe's lines that the test reads. */
interface LogLine {
  msg: string;
  config?: { apiKey?: string; searchApiKey?: string };
  request?: { headers: Record<string, string> };
  url?: string;
  err?: { message: string };
}

describe("the logger as commands build it", () => {
  const KEY = 'watch-key/with"odd+chars-123';
  const SEARCH_KEY = "search-key-4567890";
  const SMTP_PASSWORD = "smtp-pass-0987";
  const HEADER_ONLY = "header-only-value-not-a-registered-secret";

  it("scrubs secrets by field path and by value from every line it writes", async () => {
    const result = await runProcess(
      process.execPath,
      [RUN_TS, PROBE, HEADER_ONLY],
      {
        REGWATCH_LOG_LEVEL: "debug",
        REGWATCH_API_KEY: KEY,
        REGWATCH_SEARCH_API_KEY: SEARCH_KEY,
        REGWATCH_SMTP_URL: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:2525`,
        REGWATCH_MAIL_FROM: "regwatch@example.com",
        REGWATCH_WATCH_URL: "http://127.0.0.1:1",
      },
      60_000,
    );
    expect(result.code).toBe(0);
    const lines = result.stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as LogLine);
    expect(lines.map((l) => l.msg)).toEqual([
      "configuration",
      "headers",
      "401 for key [redacted]",
      "mail failed",
    ]);
    const [config, headers, warning, failure] = lines as [LogLine, LogLine, LogLine, LogLine];
    // By path: the configuration's key fields, and a header whose value no secret list holds.
    expect(config.config?.apiKey).toBe("[redacted]");
    expect(config.config?.searchApiKey).toBe("[redacted]");
    expect(headers.request?.headers["x-api-key"]).toBe("[redacted]");
    expect(headers.request?.headers.accept).toBe("application/json");
    // By value: a key inside a URL (URL-encoded) and inside a message, a password in an error.
    expect(warning.url).toBe("https://registry.example/v2/lists?key=[redacted]");
    expect(failure.err?.message).toBe("SMTP refused smtp://mailer:[redacted]@127.0.0.1:2525");
    for (const secret of [KEY, SEARCH_KEY, SMTP_PASSWORD, HEADER_ONLY, encodeURIComponent(KEY)]) {
      expect(result.stderr).not.toContain(secret);
      expect(result.stdout).not.toContain(secret);
    }
  });
});
