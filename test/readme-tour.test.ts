/**
 * The README as a newcomer meets it (issue 34): after the two commands a fresh machine needs, a
 * table of contents that lists every section and subsection in order, each link reaching its
 * heading; its hand tour calls
 * the command one way (`npx regwatch`, a checkout's way), on the emulator's realistic world,
 * and adds an alert rule before the backfill that raises the inbox's alerts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/** Lines outside fenced code blocks. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").filter((line) => {
    if (line.startsWith("```")) fenced = !fenced;
    return !fenced && !line.startsWith("```");
  });
}

function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  const end = README.indexOf("\n## ", start + 1);
  if (start < 0) throw new Error(`the README has no section "${title}"`);
  return README.slice(start, end < 0 ? undefined : end);
}

describe("the README's table of contents", () => {
  it("comes first and lists every section and subsection in order, linked to its heading", () => {
    const lines = README.split("\n");
    expect(lines[0]).toBe("# regwatch");
    // The two commands a fresh machine needs come first, then the contents.
    const body = lines.slice(1).filter((l) => l.trim() !== "");
    expect(body.slice(0, 4)).toEqual([
      "```sh",
      expect.stringMatching(/^npm install && npm run demo\s+#/),
      expect.stringMatching(/^npm test\s+#/),
      "```",
    ]);
    expect(body[4]).toBe("## Contents");
    const headings = proseLines(README)
      .map((l) => /^(##|###) (.+)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null && m[2] !== "Contents")
      .map((m) => `${m[1] === "##" ? "- " : "  - "}[${m[2]}](#${anchorOf(m[2]!)})`);
    const contents = section("Contents")
      .split("\n")
      .filter((l) => /^\s*- \[/.test(l));
    expect(contents).toEqual(headings);
  });
});

describe("the hand tour", () => {
  const tour = section("Trying it by hand");
  const commands = tour
    .split("```")
    .filter((_, i) => i % 2 === 1)
    .flatMap((block) => block.split("\n"))
    .filter((l) => /\bregwatch\b/.test(l.replace(/regwatch\.\w+|regwatch_\w+/g, "")));

  it("calls the command as npx regwatch throughout, and says how an installed package is called", () => {
    expect(commands.length).toBeGreaterThan(5);
    const bare = commands.filter((l) => /(^|[|;&]\s*)regwatch\s/.test(l.trim()));
    expect(bare).toEqual([]);
    expect(tour).toMatch(/plain `regwatch`/);
  });

  it("runs on the emulator's realistic world and adds a rule before the backfill raises alerts", () => {
    const emulator = commands.find((l) => l.includes("npx regwatch emulator"));
    expect(emulator).toContain("--realistic");
    const rule = commands.findIndex((l) => l.includes("npx regwatch alerts rule add"));
    const backfill = commands.findIndex((l) => l.includes("npx regwatch backfill"));
    expect(rule).toBeGreaterThanOrEqual(0);
    expect(backfill).toBeGreaterThan(rule);
    expect(commands[backfill]).toContain("--alert-history");
    expect(commands.some((l) => l.includes("npx regwatch web"))).toBe(true);
  });
});
