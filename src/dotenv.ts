/**
 * Reads `.env` from the working directory when there is one, as `.env.example` suggests: each
 * variable it sets applies only when the environment does not already set it (the environment wins).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";

export function loadDotEnv(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(cwd, ".env"), "utf8");
  } catch {
    return []; // no .env here: nothing to read
  }
  const applied: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] !== undefined || value === undefined) continue;
    env[name] = value;
    applied.push(name);
  }
  return applied;
}
