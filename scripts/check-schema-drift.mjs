// `node scripts/check-schema-drift.mjs [SCHEMA_ENTRY]` (`npm run check:schema`, in `npm run check`):
// fails when `npm run db:generate` would write a migration, i.e. when src/db/schema/ and
// drizzle-kit's last snapshot in migrations/meta/ (what the migrations build) disagree. drizzle-kit
// generate runs on a copy of migrations/ in a temporary folder, never on the real one, and needs
// no database. The migrator reads only meta/_journal.json and the SQL files, not the snapshots.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Every file under `dir` (relative path → size and modification time), to see what a run wrote. */
function listing(dir) {
  const files = new Map();
  for (const name of readdirSync(dir, { recursive: true })) {
    const file = path.join(dir, String(name));
    const stat = statSync(file);
    if (stat.isFile()) files.set(String(name), `${stat.size}:${stat.mtimeMs}`);
  }
  return files;
}

/**
 * What drizzle-kit generate would write for `schema` (the schema's entry file) against a copy of
 * `migrations`: the files it added or changed, each with its text ([] when the two agree), and
 * drizzle-kit's own output. Throws when drizzle-kit fails or asks a question (a rename it cannot
 * tell from a drop and an add), which a check cannot answer.
 */
export function schemaDrift({
  schema = path.join(ROOT, "src/db/schema/index.ts"),
  migrations = path.join(ROOT, "migrations"),
  root = ROOT,
} = {}) {
  const work = mkdtempSync(path.join(tmpdir(), "regwatch-schema-drift-"));
  try {
    cpSync(migrations, path.join(work, "migrations"), { recursive: true });
    // The project's settings but for the output folder; drizzle-kit takes `out` relative to its cwd.
    const config = {
      dialect: "postgresql",
      schema,
      out: "./migrations",
      schemaFilter: ["regwatch"],
    };
    writeFileSync(path.join(work, "drizzle.config.mjs"), `export default ${JSON.stringify(config)};\n`);
    const before = listing(path.join(work, "migrations"));
    const run = spawnSync(
      process.execPath,
      [path.join(root, "node_modules/drizzle-kit/bin.cjs"), "generate", "--config", "drizzle.config.mjs"],
      { cwd: work, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 },
    );
    const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
    if (run.error || run.status !== 0) {
      throw new Error(
        `drizzle-kit generate failed (${run.error?.message ?? `exit ${run.status}`}); a rename asks a question ` +
          `no check can answer: run \`npm run db:generate\` yourself.\n${output}`,
      );
    }
    const after = listing(path.join(work, "migrations"));
    const written = [...after]
      .filter(([name, stamp]) => before.get(name) !== stamp)
      .map(([name]) => ({ name, text: readFileSync(path.join(work, "migrations", name), "utf8") }));
    return { written, output };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The settings of drizzle.config.ts that this check must share (its schema entry). */
async function projectSchema() {
  const { default: config } = await import(pathToFileURL(path.join(ROOT, "drizzle.config.ts")).href);
  return path.resolve(ROOT, config.schema);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const started = performance.now();
  // A schema entry may be named (the test's drifted copy); else drizzle.config.ts's.
  const schema = process.argv[2] ? path.resolve(process.argv[2]) : await projectSchema();
  const { written } = schemaDrift({ schema });
  const took = ((performance.now() - started) / 1000).toFixed(1);
  if (written.length === 0) {
    console.log(`schema drift: none (src/db/schema/ matches migrations/meta/, ${took} s)`);
  } else {
    console.error(
      "schema drift: src/db/schema/ and the migrations disagree; `npm run db:generate` would write:\n",
    );
    // The SQL says what differs; the snapshot beside it only restates the schema.
    for (const file of written.filter((f) => f.name.endsWith(".sql")))
      console.error(`${file.name}:\n${file.text}\n`);
    console.error(
      `(${written.map((f) => f.name).join(", ")}) Either make src/db/schema/ describe what the migrations ` +
        "build, or let `npm run db:generate` write the migration (with its snapshot and journal entry) and " +
        "edit its SQL by hand if need be.",
    );
    process.exitCode = 1;
  }
}
