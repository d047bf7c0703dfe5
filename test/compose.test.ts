/**
 * docker-compose.yml, Dockerfile, .dockerignore and the env files: the compose file resolves
 * (`docker compose config`, or the same steps with the YAML parser where the Compose plugin is not
 * installed: test/helpers/compose.ts), passes every setting of .env.example to the daemon through
 * one env file, publishes Postgres on loopback at the documented port, keeps the password in a
 * secret, refuses to start without the registry variables, and names only options the CLI knows;
 * the emulator's --host and --public-url work.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { registerEmulator } from "../src/commands/emulator.ts";
import { ENV } from "../src/config-schema.ts";
import { interpolate, type ResolvedCompose, resolveCompose } from "./helpers/compose.ts";
import { startEmulatorProcess } from "./helpers/emulator-process.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

const REGISTRY = {
  REGWATCH_WATCH_URL: "https://registry.example/watch/v2",
  REGWATCH_SEARCH_URL: "https://registry.example/search/v1",
  REGWATCH_API_KEY: "key-from-env-file",
};

/** A project directory as a user sets it up: the compose file, .env from .env.example, the secret. */
function project(dotEnv: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-compose-"));
  copyFileSync(path.join(ROOT, "docker-compose.yml"), path.join(dir, "docker-compose.yml"));
  copyFileSync(path.join(ROOT, "compose.emulator.env"), path.join(dir, "compose.emulator.env"));
  writeFileSync(path.join(dir, ".env"), dotEnv);
  mkdirSync(path.join(dir, "secrets"));
  writeFileSync(path.join(dir, "secrets", "postgres-password"), "pa/ss+word=\n");
  return dir;
}

/** .env.example with the registry filled in and one setting of each kind changed. */
function userDotEnv(): string {
  let text = read(".env.example");
  for (const [name, value] of Object.entries({
    ...REGISTRY,
    REGWATCH_WEBHOOK_SECRET: "whsec_c2VjcmV0",
    REGWATCH_SMTP_URL: "smtp://mailer:pw@smtp.example:587",
    REGWATCH_PAYMENT_HOLD_DAYS: "45",
  })) {
    text = text.replace(new RegExp(`^${name}=.*$`, "m"), `${name}=${value}`);
  }
  return text;
}

describe("docker-compose.yml as Compose resolves it", () => {
  const dirs: string[] = [];
  let resolved: ResolvedCompose;
  beforeAll(async () => {
    const dir = project(userDotEnv());
    dirs.push(dir);
    resolved = await resolveCompose(dir);
    // Which way it was checked is part of the result: say it.
    process.stderr.write(`[compose.test] docker-compose.yml resolved by ${resolved.by}\n`);
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("gives the daemon every setting of .env.example from the one env file", () => {
    const env = resolved.services.regwatch!.environment;
    const example = parseEnv(read(".env.example"));
    for (const name of Object.keys(ENV))
      expect(Object.keys(example), `.env.example lacks ${name}`).toContain(name);
    for (const name of Object.keys(example)) expect(Object.keys(env), name).toContain(name);
    expect(env.REGWATCH_WEBHOOK_SECRET).toBe("whsec_c2VjcmV0");
    expect(env.REGWATCH_SMTP_URL).toBe("smtp://mailer:pw@smtp.example:587");
    expect(env.REGWATCH_PAYMENT_HOLD_DAYS).toBe("45");
    expect(env.REGWATCH_API_KEY).toBe(REGISTRY.REGWATCH_API_KEY);
    // Set by the compose file over the env file: the database and where the health server listens.
    expect(env.DATABASE_URL).toBe("postgres://regwatch@postgres:5432/regwatch");
    expect(env.DATABASE_PASSWORD_FILE).toBe("/run/secrets/postgres-password");
    expect(env.REGWATCH_HTTP_HOST).toBe("0.0.0.0");
    // Nothing regwatch does not read goes in under its prefix (doctor warns of such a variable).
    for (const name of Object.keys(env).filter((n) => n.startsWith("REGWATCH_")))
      expect(Object.keys(ENV), name).toContain(name);
  });

  it("leaves the changes parameters empty in .env.example, so the registry's description can name them", () => {
    const example = parseEnv(read(".env.example"));
    for (const name of [
      "REGWATCH_CHANGES_FROM_PARAM",
      "REGWATCH_CHANGES_TO_PARAM",
      "REGWATCH_CHANGES_PAGE_PARAM",
      "REGWATCH_CHANGES_END_INCLUSIVE",
    ])
      expect(example[name], name).toBe("");
  });

  it("publishes Postgres, the health server and the console on loopback only, Postgres at 5433", () => {
    expect(resolved.services.postgres!.ports).toEqual([
      { host_ip: "127.0.0.1", published: "5433", target: 5432 },
    ]);
    expect(resolved.services.regwatch!.ports).toEqual([
      { host_ip: "127.0.0.1", published: "9464", target: 9464 },
      { host_ip: "127.0.0.1", published: "8080", target: 8080 },
    ]);
    // The console listens on every interface inside the container, so the published port reaches it.
    expect(resolved.services.regwatch!.environment.REGWATCH_WEB_HOST).toBe("0.0.0.0");
    expect(read("README.md")).toContain("127.0.0.1:5433");
  });

  it("keeps the Postgres password in the secret file only", () => {
    const pg = resolved.services.postgres!;
    expect(pg.environment.POSTGRES_PASSWORD).toBeUndefined();
    expect(pg.environment.POSTGRES_PASSWORD_FILE).toBe("/run/secrets/postgres-password");
    expect(resolved.services.regwatch!.secrets).toEqual(["postgres-password"]);
    expect(JSON.stringify(resolved.services)).not.toContain("pa/ss+word");
  });

  it("refuses to start without the registry's addresses and key", async () => {
    const dir = project(read(".env.example"));
    dirs.push(dir);
    await expect(resolveCompose(dir)).rejects.toThrow(/REGWATCH_WATCH_URL|REGWATCH_API_KEY/);
  });

  it("starts without REGWATCH_SEARCH_URL: only lookups need the search interface", async () => {
    const withoutSearch = userDotEnv().replace(/^REGWATCH_SEARCH_URL=.*$/m, "REGWATCH_SEARCH_URL=");
    const dir = project(withoutSearch);
    dirs.push(dir);
    const started = await resolveCompose(dir);
    expect(started.services.regwatch!.environment.REGWATCH_WATCH_URL).toBe(REGISTRY.REGWATCH_WATCH_URL);
  });

  it("the emulator profile runs on compose.emulator.env alone, without a .env", async () => {
    const dir = project("");
    dirs.push(dir);
    rmSync(path.join(dir, ".env"));
    const emulated = await resolveCompose(dir, { envFile: "compose.emulator.env", profiles: ["emulator"] });
    expect(emulated.services.regwatch!.environment.REGWATCH_WATCH_URL).toBe("http://emulator:8089/v2");
    expect(emulated.services.regwatch!.environment.REGWATCH_API_KEY).toBe("emulator-key");
    expect(Object.keys(emulated.services).sort()).toEqual(["emulator", "postgres", "regwatch"]);
    for (const name of Object.keys(emulated.services.regwatch!.environment).filter((n) =>
      n.startsWith("REGWATCH_"),
    ))
      expect(Object.keys(ENV), name).toContain(name);
  });
});

describe("docker-compose.yml as written", () => {
  const compose = parse(read("docker-compose.yml")) as {
    services: Record<string, { image?: string; command?: string[] }>;
  };

  it("pins every image to a version", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.image, name).toMatch(/:\d+(\.\d+)+[\w.-]*$/);
    }
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

  it("runs the daemon with its console", () => {
    expect(compose.services.regwatch!.command).toEqual(["daemon", "--web"]);
  });

  it("documents doctor and status through docker compose exec", () => {
    const text = read("docker-compose.yml");
    expect(text).toContain("docker compose exec regwatch regwatch doctor");
    expect(read("README.md")).toContain("docker compose exec regwatch regwatch doctor");
  });
});

describe("interpolation of the fallback", () => {
  // biome-ignore-start lint/suspicious/noTemplateCurlyInString: Compose's own ${...} syntax, not a template
  it("follows Compose's rules for defaults, refusals and $$", () => {
    expect(interpolate("${A:-x} ${B:-y} ${C-z} $${A}", { A: "a", B: "", C: "" })).toBe("a y  ${A}");
    expect(() => interpolate("${A:?set A}", { A: "" })).toThrow(/set A/);
    expect(interpolate("${A?set A}", { A: "" })).toBe("");
  });
  // biome-ignore-end lint/suspicious/noTemplateCurlyInString: Compose's own ${...} syntax
});

describe("image files", () => {
  it("the image runs the compiled build on Node 26 without dev or optional dependencies", () => {
    const dockerfile = read("Dockerfile");
    expect(dockerfile).toMatch(/^FROM node:26\.\d+\.\d+-/m);
    expect(dockerfile).toContain("scripts/build.mjs");
    expect(dockerfile).toMatch(/npm ci --omit=dev --omit=optional/);
    expect(dockerfile).toContain("ENV NODE_OPTIONS=--max-semi-space-size=2");
    expect(dockerfile).toMatch(/^ENTRYPOINT \["regwatch"\]$/m);
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
