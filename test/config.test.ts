import { describe, expect, it } from "vitest";
import * as z from "zod";
import { DEFAULTS, loadConfig, requireWatch } from "../src/config.ts";
import { describeIssue, ENV, type EnvName, type EnvVariable } from "../src/config-schema.ts";
import { nodeCron } from "../src/cron.ts";
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

describe("the variables `regwatch status` reads, checked by hand", () => {
  // The schemas these variables had before they were checked by hand (the status file loads zod
  // only for the others): the same values must be taken and refused with the same words.
  const before: Record<string, () => z.ZodType> = {
    DATABASE_URL: () => z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL"),
    REGWATCH_TZ: () => z.string().refine(knownZone, "is not a known IANA time zone (e.g. Europe/Budapest)"),
    REGWATCH_REGISTRY_TZ: () =>
      z.string().refine(knownZone, "is not a known IANA time zone (e.g. Europe/Budapest)"),
    REGWATCH_SCHEDULE: () =>
      z.string().refine((s) => nodeCron().validate(s), "is not a valid cron expression"),
    REGWATCH_SEARCH_MONTHLY_QUOTA: () =>
      z.string().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number()),
    REGWATCH_LOG_LEVEL: () => z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
  };
  const values = [
    "postgres://u@h/db",
    "postgresql://h",
    "mysql://user:pw@db/x",
    "Europe/Budapest",
    "UTC",
    "Mars/Base",
    "15 7 * * *",
    "*/5 * * * 1-5",
    "every morning",
    "0",
    "2000",
    "-1",
    "1.5",
    "9".repeat(400),
    "debug",
    "loud",
  ];

  it("takes and refuses what the schemas did, in the same words", () => {
    for (const [name, schema] of Object.entries(before)) {
      const variable = ENV[name as keyof typeof ENV] as EnvVariable;
      expect(variable.check, name).toBeDefined();
      for (const value of values) {
        const old = schema().safeParse(value);
        const checked = variable.check?.(value);
        expect(checked?.ok, `${name}=${value}`).toBe(old.success);
        if (old.success) expect(checked).toEqual({ ok: true, value: old.data });
        else {
          const message = old.error.issues[0]?.message;
          expect(checked).toEqual({ ok: false, message });
          // loadConfig and the variable's schema (config-docs, the accounts file) say the same.
          expect(variable.schema().safeParse(value).error?.issues[0]?.message).toBe(message);
          expect(problemsOf({ [name]: value })).toEqual([
            `${name}: ${describeIssue(old.error, name as EnvName, value)}`,
          ]);
        }
      }
    }
  });
});

function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
