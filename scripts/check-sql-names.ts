/**
 * Every statement of src/ names regwatch's tables, views and functions with the account's schema
 * (`${sql.t.watch_lists}`, src/db/scoped-sql.ts): no connection has a search_path that would find
 * an unqualified one, and a pool serves several accounts. This finds SQL templates that name one
 * unqualified: after from, join, into, update, table, truncate, using or a FROM list's comma, a
 * function's name before its `(`, and a name quoted for to_regclass or a regclass cast.
 *
 *   node bin/run-ts.js scripts/check-sql-names.ts [dir]   # exit 1 listing every unqualified name
 *
 * `dir` defaults to this repository's src/. The names are those migrations/ creates in schema
 * regwatch. `npm run check` runs it.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BASELINE_FILE } from "../src/db/migration-baseline.ts";

export interface Relations {
  /** Tables, views and sequences. */
  tables: Set<string>;
  functions: Set<string>;
}

/** The relations and functions the migrations create in schema regwatch. */
export function relationsOf(migrations: readonly string[]): Relations {
  const tables = new Set<string>();
  const functions = new Set<string>();
  const create =
    /\bcreate\s+(?:or\s+replace\s+)?(materialized\s+view|table|view|sequence|function)\s+(?:if\s+not\s+exists\s+)?"?regwatch"?\."?([a-z_][a-z0-9_]*)"?/gi;
  for (const text of migrations)
    for (const [, kind, name] of text.matchAll(create))
      (kind!.toLowerCase() === "function" ? functions : tables).add(name!);
  return { tables, functions };
}

/** A tagged template of a source file: its tag as written and the offsets of its text. */
export interface Template {
  tag: string;
  /** [start, end) of each literal part (between `${...}`), in the file's text. */
  parts: Array<[number, number]>;
}

const TAGS = /(?:^|\.)(?:sql|tx|txn|t|sp|conn|db|reserved|scoped|pool|q)$/;

/** The tagged templates whose tag is an Sql handle (`sql`, `tx`, `db.sql`, `this.sql`, ...). */
export function sqlTemplates(text: string): Template[] {
  const found: Template[] = [];
  let i = 0;
  // Skips a quoted string, a comment or a template (collecting it) starting at i; returns the end.
  const skip = (at: number): number => {
    const c = text[at];
    if (c === "/" && text[at + 1] === "/")
      return text.indexOf("\n", at) < 0 ? text.length : text.indexOf("\n", at);
    if (c === "/" && text[at + 1] === "*") return text.indexOf("*/", at + 2) + 2;
    if (c === '"' || c === "'") {
      let j = at + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      return j + 1;
    }
    if (c === "`") return template(at);
    if (c === "/" && startsRegex(text, at)) return regexEnd(text, at);
    return at + 1;
  };
  const template = (at: number): number => {
    const tag = tagBefore(text, at);
    const parts: Array<[number, number]> = [];
    let start = at + 1;
    let j = at + 1;
    while (j < text.length && text[j] !== "`") {
      if (text[j] === "\\") j += 2;
      else if (text[j] === "$" && text[j + 1] === "{") {
        parts.push([start, j]);
        j = expression(j + 2);
        start = j;
      } else j++;
    }
    parts.push([start, j]);
    if (tag && TAGS.test(tag.replace(/(?:\[[^\]]*\])?!?$/, ""))) found.push({ tag, parts });
    return j + 1;
  };
  // Skips `${...}`'s expression from `at`; returns the offset after its `}`.
  const expression = (at: number): number => {
    let depth = 0;
    let j = at;
    while (j < text.length) {
      const c = text[j];
      if (c === "}" && depth === 0) return j + 1;
      if (c === "{") depth++;
      else if (c === "}") depth--;
      if (c === "`" || c === '"' || c === "'" || c === "/") j = skip(j);
      else j++;
    }
    return j;
  };
  while (i < text.length) i = skip(i);
  return found;
}

/** Whether the `/` at `at` starts a regular expression literal (not a division): by what precedes it. */
function startsRegex(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 12), at).trimEnd();
  return (
    before === "" || /[(,=:[!&|?{};+\-*%<>~^]$/.test(before) || /\b(?:return|typeof|case|of|in)$/.test(before)
  );
}

/** The offset after a regular expression literal starting at `at` (its flags included). */
function regexEnd(text: string, at: number): number {
  let j = at + 1;
  let inClass = false;
  while (j < text.length && text[j] !== "\n") {
    const c = text[j];
    if (c === "\\") j += 2;
    else {
      if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) break;
      j++;
    }
  }
  j++;
  while (j < text.length && /[a-z]/.test(text[j]!)) j++;
  return j;
}

/** The tag before a template's backtick at `at` (`db.sql`, `sql` of `sql<Row[]>`), or "". */
function tagBefore(text: string, at: number): string {
  let j = at - 1;
  if (text[j] === ">") {
    // Type arguments: back over balanced <...>.
    let depth = 0;
    for (; j >= 0; j--) {
      if (text[j] === ">") depth++;
      else if (text[j] === "<" && --depth === 0) break;
    }
    j--;
  }
  const match = /[A-Za-z_$][\w$.[\]!]*$/.exec(text.slice(Math.max(0, j - 80), j + 1));
  return match ? match[0] : "";
}

/** Where a template's SQL names a relation unqualified: the name and its offset in the file. */
export interface Unqualified {
  name: string;
  at: number;
  /** The context that made it a relation: the word or mark before it, or "(" after a function. */
  by: string;
}

/** A template's text with its string literals and comments blanked (offsets kept). */
function blanked(text: string): string {
  return text.replace(/'(?:[^']|'')*'|--[^\n]*/g, (m) => " ".repeat(m.length));
}

const BEFORE = /(?:\b(from|join|into|update|table|truncate|using|only|exists|copy)|(,))\s*$/i;

export function unqualifiedIn(text: string, template: Template, relations: Relations): Unqualified[] {
  const out: Unqualified[] = [];
  // The template's text, `${...}` replaced by a placeholder word, so a name's neighbours are seen.
  let sqlText = "";
  const offsets: number[] = [];
  template.parts.forEach(([s, e], n) => {
    if (n > 0) {
      sqlText += " $ ";
      offsets.push(-1, -1, -1);
    }
    sqlText += text.slice(s, e);
    for (let k = s; k < e; k++) offsets.push(k);
  });
  const code = blanked(sqlText);
  // Names the template defines as CTEs are the CTEs' own (`with runs as (...) select ... from runs`).
  const ctes = new Set(
    [...code.matchAll(/(?:\bwith|,)\s*([a-z_][a-z0-9_]*)\s+as\s+(?:not\s+)?(?:materialized\s+)?\(/gi)].map(
      (m) => m[1],
    ),
  );
  for (const m of code.matchAll(/[a-z_][a-z0-9_]*/g)) {
    const name = m[0];
    const at = m.index!;
    const prev = code[at - 1] ?? "";
    const next = code[at + name.length] ?? "";
    if (/[\w."$]/.test(prev) || next === "." || next === '"') continue;
    const after = code.slice(at + name.length).trimStart();
    if (relations.functions.has(name) && after.startsWith("(")) {
      out.push({ name, at: offsets[at]!, by: "(" });
      continue;
    }
    if (!relations.tables.has(name) || ctes.has(name)) continue;
    const before = BEFORE.exec(code.slice(Math.max(0, at - 40), at));
    if (!before) continue;
    if (before[2] && !inFromList(code, at)) continue;
    out.push({ name, at: offsets[at]!, by: (before[1] ?? before[2]!).toLowerCase() });
  }
  // to_regclass('name') and 'name'::regclass, inside the literals blanked above.
  for (const m of sqlText.matchAll(/to_regclass\(\s*'([a-z_][a-z0-9_]*)'|'([a-z_][a-z0-9_]*)'::regclass/g)) {
    const name = (m[1] ?? m[2])!;
    if (relations.tables.has(name)) out.push({ name, at: offsets[m.index!]!, by: "regclass" });
  }
  return out;
}

/** Whether the comma at `at` is in a FROM or TRUNCATE list: not closed by another clause since. */
function inFromList(code: string, at: number): boolean {
  const before = code.slice(0, at).toLowerCase();
  const from = Math.max(before.lastIndexOf("from"), before.lastIndexOf("truncate"));
  if (from < 0) return false;
  const between = before.slice(from).replace(/^\w+/, "");
  return !/\b(where|select|group|order|having|limit|on|set|values|returning|union|with)\b|[()]/.test(between);
}

/** Every unqualified name in `files` (path → text), as `path:line: name (after by)`. */
export function findUnqualified(files: ReadonlyMap<string, string>, relations: Relations): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    for (const template of sqlTemplates(text)) {
      for (const u of unqualifiedIn(text, template, relations)) {
        const line = text.slice(0, u.at).split("\n").length;
        found.push(`${file}:${line}: ${u.name} (${u.by === "(" ? "a call" : `after ${u.by}`})`);
      }
    }
  }
  return found;
}

async function sources(dir: string, root = dir): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) for (const [k, v] of await sources(full, root)) files.set(k, v);
    else if (entry.name.endsWith(".ts"))
      files.set(path.relative(path.dirname(root), full), await readFile(full, "utf8"));
  }
  return files;
}

export async function readRelations(migrationsDir: string): Promise<Relations> {
  // The migrations only: the baseline restates what they create, in pg_dump's words.
  const names = (await readdir(migrationsDir))
    .filter((f) => f.endsWith(".sql") && f !== BASELINE_FILE)
    .sort();
  return relationsOf(await Promise.all(names.map((f) => readFile(path.join(migrationsDir, f), "utf8"))));
}

/** The migrations' names missing from scoped-sql.ts's RELATION_NAMES (which types `sql.t`). */
export function unlisted(relations: Relations, scopedSqlText: string): string[] {
  const list = /RELATION_NAMES = \[([^\]]*)\]/.exec(scopedSqlText)?.[1] ?? "";
  const listed = new Set([...list.matchAll(/"([a-z_][a-z0-9_]*)"/g)].map((m) => m[1]));
  return [...relations.tables, ...relations.functions].filter((name) => !listed.has(name)).sort();
}

async function main(): Promise<void> {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(repo, "src");
  const relations = await readRelations(path.join(repo, "migrations"));
  const found = findUnqualified(await sources(dir), relations);
  const scoped = await readFile(path.join(repo, "src/db/scoped-sql.ts"), "utf8");
  for (const name of unlisted(relations, scoped))
    found.push(`src/db/scoped-sql.ts: ${name} is created by migrations/ but not in RELATION_NAMES`);
  if (found.length === 0) return;
  process.stderr.write(
    `${found.length} SQL name(s) without the account's schema (write \${sql.t.name}):\n${found.join("\n")}\n`,
  );
  process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
