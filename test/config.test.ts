import { describe, expect, it } from "vitest";
import { DEFAULTS, loadConfig, requireWatch } from "../src/config.ts";
import { ENV, type EnvVariable } from "../src/config-schema.ts";
import { ConfigError } from "../src/errors.ts";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe("configuration", () => {
  it("takes every default from one place when nothing is set", () => {
    const config = loadConfig({});
    expect(config.rateLimit).toBe(DEFAULTS.rateLimit);
    expect(config.tz).toBe("Europe/Budapest");
    expect(config.schedule).toBe("15 7 * * *");
    expect(config.changesFromParam).toBe("start_date");
    expect(config.fileOrigins).toEqual([]);
    expect(config.databaseUrl).toBeUndefined();
  });

  it("reports every bad variable together, each by name", () => {
    const problems = problemsOf({
      REGWATCH_RATE_LIMIT: "abc",
      REGWATCH_TZ: "Mars/Base",
      REGWATCH_START_DATE: "2025-02-30",
      REGWATCH_SCHEDULE: "every morning",
      REGWATCH_WATCH_URL: "ftp://x",
    });
    expect(problems).toHaveLength(5);
    expect(problems.join("\n")).toMatch(/REGWATCH_RATE_LIMIT: .*"abc"/);
    expect(problems.join("\n")).toMatch(/REGWATCH_TZ: .*time zone.*"Mars\/Base"/);
    expect(problems.join("\n")).toMatch(/REGWATCH_START_DATE/);
    expect(problems.join("\n")).toMatch(/REGWATCH_SCHEDULE/);
    expect(problems.join("\n")).toMatch(/REGWATCH_WATCH_URL/);
  });

  it("never echoes a secret or a connection string back", () => {
    const problems = problemsOf({ DATABASE_URL: "mysql://user:hunter2@db/x" });
    expect(problems[0]).toMatch(/^DATABASE_URL/);
    expect(problems[0]).not.toContain("hunter2");
  });

  it("derives file origins and the search key from the watch settings", () => {
    const config = loadConfig({ REGWATCH_WATCH_URL: "https://watch.example/api/", REGWATCH_API_KEY: "k1" });
    expect(config.watchUrl).toBe("https://watch.example/api");
    expect(config.fileOrigins).toEqual(["https://watch.example"]);
    expect(config.searchApiKey).toBe("k1");
    // Origins only: one given with a path is refused (test/api/config-hardening.test.ts).
    const explicit = loadConfig({ REGWATCH_FILE_ORIGINS: "https://a.example, http://b.example:8080" });
    expect(explicit.fileOrigins).toEqual(["https://a.example", "http://b.example:8080"]);
  });

  it("names what a command needs when it is missing", () => {
    expect(() => requireWatch(loadConfig({}))).toThrow(/REGWATCH_WATCH_URL[\s\S]*REGWATCH_API_KEY/);
  });
});

describe("the variables' table", () => {
  it("gives an unset variable its schema's own default, without building the schema", () => {
    for (const [name, variable] of Object.entries(ENV) as [string, EnvVariable][]) {
      const parsed = variable.schema().safeParse(undefined);
      expect(parsed.success, name).toBe(true);
      expect(variable.unset, name).toEqual(parsed.data);
    }
  });
});
