/**
 * Every relative link of README.md and docs/*.md reaches a file of the repository, and a link
 * with a `#heading` reaches a heading of its Markdown file (GitHub's anchors). Web addresses are
 * not followed.
 *
 *   node bin/run-ts.js scripts/check-doc-links.ts   # exit 1, one line per broken link
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The text with fenced code blocks and inline code taken out: links there are not links. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The anchors of a Markdown file's headings, a repeated one numbered as GitHub does (-1, -2). */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf(m[1]!.replace(/`/g, ""));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The Markdown files whose links are checked, relative to the repository's root. */
export function documents(): string[] {
  const docs = readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs];
}

/** One line per broken link: `file: [label](target) …why`. */
export function brokenLinks(files = documents()): string[] {
  const problems: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let found = anchorCache.get(file);
    if (!found) {
      found = anchorsOf(readFileSync(file, "utf8"));
      anchorCache.set(file, found);
    }
    return found;
  };
  for (const file of files) {
    const absolute = path.join(ROOT, file);
    const text = readFileSync(absolute, "utf8");
    // Ordinary links and images, whose target has no space: [label](target) or [label](target "title").
    for (const m of prose(text).matchAll(/\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[2]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
      const linked = pathPart === "" ? absolute : path.resolve(path.dirname(absolute), pathPart);
      if (!existsSync(linked)) {
        problems.push(`${file}: [${m[1]}](${target}) names a file that does not exist`);
        continue;
      }
      if (anchor !== undefined && linked.endsWith(".md") && !anchors(linked).has(anchor)) {
        problems.push(`${file}: [${m[1]}](${target}) names a heading ${path.basename(linked)} does not have`);
      }
    }
  }
  return problems;
}

const invokedAs = process.argv[1] ? path.resolve(process.argv[1]) : "";
if (invokedAs === fileURLToPath(import.meta.url)) {
  const problems = brokenLinks();
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
}
