/**
 * `regwatch emulator`: the bundled registry emulator as a standalone server, for trying regwatch
 * by hand or pointing a demo at it. It needs no database and runs until SIGINT or SIGTERM.
 */
import { readFile } from "node:fs/promises";
import { type Command, InvalidArgumentError } from "commander";
import {
  type EmulatorOptions,
  emulatorOptionProblems,
  type RunningEmulator,
  startEmulator,
  type World,
} from "../emulator/index.ts";
import { coerceError, EXIT } from "../errors.ts";
import { parseNonNegativeInt, parsePositiveInt } from "./arg-parsers.ts";

interface EmulatorFlags {
  port?: number;
  host?: string;
  publicUrl?: string;
  filePort?: number;
  seed?: string;
  apiKey?: string;
  businesses?: number;
  now?: string;
  frozen?: boolean;
  latency?: number;
  rateLimit?: number;
  faults?: string;
  lists?: string;
  tenants?: string;
  sharedFiles?: boolean;
  sameDayChains?: boolean;
  valueHistory?: boolean;
  currentRecords?: boolean;
  realistic?: boolean;
  changesFromParam?: string;
  changesToParam?: string;
  basePath?: string;
  description?: boolean;
}

function parseInstant(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError(`"${value}" is not an ISO instant such as 2024-03-01T08:00:00Z.`);
  }
  return value;
}

/** A numeric seed stays a number, so `--seed 7` and `seed: 7` give the same data. */
function seedValue(value: string): number | string {
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

async function readJsonFile(path: string, what: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new InvalidArgumentError(`cannot read ${what} from ${path}: ${coerceError(error).message}`);
  }
}

export function registerEmulator(program: Command): void {
  program
    .command("emulator")
    .description("run the bundled registry emulator (search v1, watch v2, change files) until stopped")
    .option("--port <n>", "port of the API origin (0 = any free port)", parseNonNegativeInt, 0)
    .option("--host <address>", "interface to listen on (0.0.0.0 in a container)", "127.0.0.1")
    .option(
      "--public-url <url>",
      "the URL clients reach the emulator at, when not http://HOST:PORT (it names the change files)",
      parsePublicUrl,
    )
    .option(
      "--file-port <n>",
      "serve change files from a second origin on this port (0 = any)",
      parseNonNegativeInt,
    )
    .option("--seed <seed>", "seed of the generated data, list keys and faults", "1")
    .option("--api-key <key>", "the X-Api-Key the emulator accepts", "emulator-key")
    .option("--businesses <n>", "size of the generated register", parsePositiveInt, 5000)
    .option("--now <iso>", "simulated time at start (default: the real now)", parseInstant)
    .option("--frozen", "keep the simulated clock still (move it through /_emulator/clock)")
    .option("--latency <ms>", "delay added to every registry and file response", parseNonNegativeInt)
    .option("--rate-limit <n>", "requests per second per key", parsePositiveInt)
    .option("--faults <file.json>", "fault rules: an array, or an object with a faults array")
    .option(
      "--lists <file.json>",
      "lists existing at start: an array of {name, createdAt, taxIds|size, addedAt}",
    )
    .option(
      "--tenants <file.json>",
      "several keys instead of --api-key, each with a world of its own: an array of {apiKey, seed?, lists?}",
    )
    .option(
      "--shared-files",
      "one change file per business form and day (DATE/FORM/changes.json), shared by its businesses, entries shuffled",
    )
    .option(
      "--same-day-chains",
      "same-day changes of a heading chained across chapters (A->B, then B->C in `corrections`, listed first) and headings listed twice in one file; implies --value-history",
    )
    .option(
      "--value-history",
      "each change's old value is the previous change's new one; a status never changes to itself",
    )
    .option("--current-records", "search records show the new values of the latest changes loaded by now")
    .option(
      "--realistic",
      "all four above: the registry's world as it is, not as the simple emulator draws it",
    )
    .option(
      "--changes-from-param <name>",
      "query parameter of the changes interval's first day",
      "start_date",
    )
    .option("--changes-to-param <name>", "query parameter of the changes interval's last day", "end_date")
    .option("--base-path <path>", "serve the API under this path prefix (e.g. /watch), as behind a proxy")
    .option("--no-description", "serve no description at /v2/docs and /v2/openapi.json")
    .action(async (flags: EmulatorFlags) => {
      try {
        const options = await emulatorOptions(flags);
        const problems = emulatorOptionProblems(options);
        if (problems.length > 0) throw new InvalidArgumentError(problems.join("; "));
        await serveUntilStopped(options);
      } catch (error) {
        const usage = error instanceof InvalidArgumentError;
        process.stderr.write(`regwatch: ${coerceError(error).message}\n`);
        process.exitCode = usage ? EXIT.usage : EXIT.failed;
      }
    });
}

function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`"${value}" is not a URL (e.g. http://emulator:8089)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidArgumentError(`"${value}" must be an http or https URL`);
  return url.origin;
}

async function emulatorOptions(flags: EmulatorFlags): Promise<EmulatorOptions> {
  const options: EmulatorOptions = {
    seed: seedValue(flags.seed ?? "1"),
    businesses: flags.businesses ?? 5000,
    port: flags.port ?? 0,
    host: flags.host ?? "127.0.0.1",
    frozenClock: flags.frozen ?? false,
  };
  for (const name of [
    "sharedFiles",
    "sameDayChains",
    "valueHistory",
    "currentRecords",
    "realistic",
  ] as const) {
    if (flags[name]) options[name] = true;
  }
  if (flags.tenants === undefined) options.apiKey = flags.apiKey ?? "emulator-key";
  else if (flags.apiKey !== "emulator-key")
    throw new InvalidArgumentError("give either --api-key or --tenants");
  else {
    const parsed = await readJsonFile(flags.tenants, "tenants");
    if (!Array.isArray(parsed))
      throw new InvalidArgumentError(`${flags.tenants} must hold a JSON array of tenants`);
    options.tenants = parsed as EmulatorOptions["tenants"];
  }
  if (flags.publicUrl !== undefined) options.publicUrl = flags.publicUrl;
  if (flags.changesFromParam !== undefined) options.changesFromParam = flags.changesFromParam;
  if (flags.changesToParam !== undefined) options.changesToParam = flags.changesToParam;
  if (flags.basePath !== undefined) options.basePath = flags.basePath;
  if (flags.description === false) options.describe = false;
  if (flags.filePort !== undefined)
    Object.assign(options, { separateFileOrigin: true, filePort: flags.filePort });
  if (flags.now !== undefined) options.now = flags.now;
  if (flags.latency !== undefined) options.latencyMs = flags.latency;
  if (flags.rateLimit !== undefined) options.rateLimit = flags.rateLimit;
  if (flags.faults !== undefined) {
    const parsed = await readJsonFile(flags.faults, "fault rules");
    options.faults = (
      Array.isArray(parsed) ? parsed : (parsed as { faults?: unknown })?.faults
    ) as EmulatorOptions["faults"];
  }
  if (flags.lists !== undefined) {
    const parsed = await readJsonFile(flags.lists, "lists");
    if (!Array.isArray(parsed))
      throw new InvalidArgumentError(`${flags.lists} must hold a JSON array of lists`);
    options.lists = parsed as EmulatorOptions["lists"];
  }
  return options;
}

/** The switches in force, or `plain` when none is. */
function worldLine(world: World): string {
  const on = Object.entries(world)
    .filter(([, value]) => value)
    .map(([name]) => name);
  return on.length === 0 ? "plain" : on.join(", ");
}

async function serveUntilStopped(options: EmulatorOptions): Promise<void> {
  const emulator = await startEmulator(options);
  // Listening for the stop before printing the addresses: a signal sent the moment they are read
  // must find the handler there.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  const fileOrigin = new URL(emulator.fileBaseUrl).origin;
  process.stdout.write(
    [
      `regwatch emulator listening`,
      `  url:           ${emulator.url}`,
      `  file base url: ${emulator.fileBaseUrl}`,
      emulator.tenants().length > 1
        ? `  api keys:      ${emulator.tenants().length} (each with a world of its own)`
        : `  api key:       ${emulator.apiKey}`,
      `  admin:         ${emulator.url}/_emulator/stats`,
      `  description:   ${emulator.baseUrl}/v2/docs (changes parameters ${options.changesFromParam ?? "start_date"}, ${options.changesToParam ?? "end_date"})`,
      `  world:         ${worldLine(emulator.world())}`,
      "",
      ...(emulator.tenants().length > 1
        ? accountsSnippet(emulator, fileOrigin)
        : [
            "Point regwatch at it with (the addresses as the registry's document gives them, with their version):",
            `REGWATCH_WATCH_URL=${emulator.baseUrl}/v2`,
            `REGWATCH_SEARCH_URL=${emulator.baseUrl}/v1`,
            `REGWATCH_API_KEY=${emulator.apiKey}`,
            `REGWATCH_FILE_ORIGINS=${fileOrigin === emulator.url ? emulator.url : `${emulator.url},${fileOrigin}`}`,
          ]),
      "",
    ].join("\n"),
  );
  await stopped;
  await emulator.close();
  process.stdout.write("regwatch emulator stopped\n");
  process.exitCode = EXIT.ok;
}

/**
 * With several keys, one regwatch account per key: an accounts file (YAML) to save as
 * REGWATCH_ACCOUNTS_FILE and the variables that carry the keys. The keys are the emulator's own,
 * invented for it, so printing them is harmless.
 */
function accountsSnippet(emulator: RunningEmulator, fileOrigin: string): string[] {
  const tenants = emulator.tenants();
  const origins = fileOrigin === emulator.url ? [emulator.url] : [emulator.url, fileOrigin];
  const entries = tenants.flatMap((_, i) => [
    `  - name: tenant${i + 1}`,
    `    watch_url: ${emulator.baseUrl}/v2`,
    `    search_url: ${emulator.baseUrl}/v1`,
    `    api_key_env: TENANT${i + 1}_API_KEY`,
    `    file_origins: [${origins.join(", ")}]`,
  ]);
  return [
    `One regwatch account per key: save these lines as accounts.yaml (REGWATCH_ACCOUNTS_FILE=accounts.yaml)`,
    "and run `regwatch migrate`; the variables after them carry the keys.",
    "accounts:",
    ...entries,
    "",
    ...tenants.map((t, i) => `TENANT${i + 1}_API_KEY=${t.apiKey}`),
    `REGWATCH_ACCOUNTS_FILE=accounts.yaml`,
  ];
}
