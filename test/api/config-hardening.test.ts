/** Bullet 8 of issue 10: keys with control characters and file origins with a path are refused. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { ConfigError, EXIT } from "../../src/errors.ts";

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a configuration error");
}

describe("configuration hardening", () => {
  it("refuses keys and the client id with control characters, naming the variable, exit 78", () => {
    const error = failure({
      REGWATCH_API_KEY: "abc\ndef-key",
      REGWATCH_SEARCH_API_KEY: "search-key\r\n",
      REGWATCH_CLIENT_ID: "id\u0000x",
    });
    expect(error.exitCode).toBe(EXIT.config);
    expect(error.problems).toHaveLength(3);
    expect(error.problems.join("\n")).toMatch(/REGWATCH_API_KEY: must not contain control characters/);
    expect(error.problems.join("\n")).toMatch(/REGWATCH_SEARCH_API_KEY: must not contain control characters/);
    expect(error.problems.join("\n")).toMatch(/REGWATCH_CLIENT_ID: must not contain control characters/);
    // The key itself is never echoed.
    expect(error.message).not.toContain("def-key");
  });

  it("refuses a file origin with a path or query, accepts scheme://host:port", () => {
    for (const origin of [
      "https://files.example/data",
      "https://files.example?x=1",
      "https://u:p@files.example",
    ]) {
      const error = failure({ REGWATCH_FILE_ORIGINS: `https://ok.example,${origin}` });
      expect(error.problems.join("\n")).toMatch(
        /REGWATCH_FILE_ORIGINS: must list origins only \(scheme:\/\/host\[:port\]\)/,
      );
    }
    const config = loadConfig({ REGWATCH_FILE_ORIGINS: "https://a.example:8443, http://b.example/" });
    expect(config.fileOrigins).toEqual(["https://a.example:8443", "http://b.example"]);
  });
});
