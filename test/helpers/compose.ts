/**
 * docker-compose.yml as Docker Compose resolves it for a project directory: `docker compose config`
 * when the Compose plugin is installed, else the same steps done here (variable interpolation
 * from the project's .env, with `:-` defaults and `:?` refusals, env files merged under each
 * service's `environment`, short port syntax spelled out), so a test checks the same result
 * either way and says which one it used.
 */
import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv, promisify } from "node:util";
import { parse } from "yaml";

const run = promisify(execFile);

export interface ResolvedPort {
  host_ip?: string;
  published?: string;
  target: number;
}

export interface ResolvedService {
  image?: string;
  command?: string[];
  environment: Record<string, string>;
  ports: ResolvedPort[];
  secrets: string[];
  profiles?: string[];
}

export interface ResolvedCompose {
  /** "docker compose config", or "the YAML parser" when the Compose plugin is not installed. */
  by: string;
  services: Record<string, ResolvedService>;
}

export function composeAvailable(): boolean {
  return spawnSync("docker", ["compose", "version"], { stdio: "ignore" }).status === 0;
}

/** Resolves `dir`/docker-compose.yml with `dir`/.env (or `envFile`) for interpolation. */
export async function resolveCompose(
  dir: string,
  options: { envFile?: string; profiles?: string[] } = {},
): Promise<ResolvedCompose> {
  const envFile = path.join(dir, options.envFile ?? ".env");
  if (composeAvailable()) {
    const args = ["compose", "--project-directory", dir, "--env-file", envFile];
    for (const profile of options.profiles ?? []) args.push("--profile", profile);
    const { stdout } = await run("docker", [...args, "config", "--format", "json"], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    const json = JSON.parse(stdout) as { services: Record<string, Partial<ResolvedService>> };
    const services = Object.fromEntries(
      Object.entries(json.services).map(([name, s]) => [
        name,
        {
          ...s,
          environment: (s.environment ?? {}) as Record<string, string>,
          ports: (s.ports ?? []).map((p) => ({
            host_ip: p.host_ip,
            published: p.published,
            target: p.target,
          })),
          secrets: ((s.secrets ?? []) as unknown as { source: string }[]).map((x) => x.source),
        },
      ]),
    );
    return { by: "docker compose config", services };
  }
  return resolveWithYaml(dir, envFile, options.profiles ?? []);
}

function resolveWithYaml(dir: string, envFile: string, profiles: string[]): ResolvedCompose {
  const variables = parseEnv(readFileSync(envFile, "utf8"));
  const text = interpolate(readFileSync(path.join(dir, "docker-compose.yml"), "utf8"), variables);
  const doc = parse(text) as {
    services: Record<
      string,
      {
        image?: string;
        command?: string[];
        env_file?: string[];
        environment?: Record<string, string>;
        ports?: string[];
        secrets?: string[];
        profiles?: string[];
      }
    >;
    secrets?: Record<string, { file: string }>;
  };
  const services: Record<string, ResolvedService> = {};
  for (const [name, s] of Object.entries(doc.services)) {
    if (s.profiles && !s.profiles.some((p) => profiles.includes(p))) continue;
    const environment: Record<string, string> = {};
    for (const file of s.env_file ?? []) {
      for (const [k, v] of Object.entries(parseEnv(readFileSync(path.resolve(dir, file), "utf8"))))
        environment[k] = interpolate(v ?? "", variables);
    }
    for (const [k, v] of Object.entries(s.environment ?? {})) environment[k] = String(v);
    for (const secret of s.secrets ?? []) {
      if (!doc.secrets?.[secret])
        throw new Error(`service ${name} uses secret ${secret}, which is not defined`);
    }
    services[name] = {
      image: s.image,
      command: s.command,
      environment,
      ports: (s.ports ?? []).map(parsePort),
      secrets: s.secrets ?? [],
      profiles: s.profiles,
    };
  }
  return { by: "the YAML parser (the Docker Compose plugin is not installed)", services };
}

/** Compose's interpolation: $$, ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}. */
export function interpolate(text: string, variables: Record<string, string | undefined>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (whole, name?: string, colon?: string, kind?: string, word?: string) => {
      if (whole === "$$") return "$";
      const value = variables[name!];
      const missing = value === undefined || (colon === ":" && value === "");
      if (!kind) return value ?? "";
      if (!missing) return value!;
      if (kind === "-") return word ?? "";
      throw new Error(`required variable ${name} is missing a value: ${word}`);
    },
  );
}

function parsePort(spec: string): ResolvedPort {
  const parts = spec.split(":");
  if (parts.length === 3) return { host_ip: parts[0], published: parts[1], target: Number(parts[2]) };
  if (parts.length === 2) return { published: parts[0], target: Number(parts[1]) };
  return { target: Number(parts[0]) };
}
