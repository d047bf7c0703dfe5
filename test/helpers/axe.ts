/**
 * An automated WCAG 2.1 AA check of the page a test has open: axe-core (a dev dependency, its
 * built file evaluated in the page) run with the A and AA rules of WCAG 2.0 and 2.1, and the
 * violations a person would be blocked by (impact serious or critical) returned as lines of
 * "rule: selector, selector" so a failing test prints what to fix and where.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
let axeSource: string | undefined;
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const BLOCKING = new Set(["serious", "critical"]);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** The serious and critical WCAG 2.1 AA violations on the open page, one line each. */
export async function blockingViolations(page: Page): Promise<string[]> {
  // The console's CSP (script-src 'self') refuses an injected <script>; an evaluation through the
  // DevTools protocol is not the page's own script, so the page's policy stays as it is served.
  axeSource ??= readFileSync(AXE_SCRIPT, "utf8");
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const axe = (globalThis as unknown as { axe: { run(options: unknown): Promise<unknown> } }).axe;
    // Without a context axe checks the whole document.
    const result = (await axe.run({ runOnly: { type: "tag", values: tags } })) as {
      violations: AxeViolation[];
    };
    return result.violations;
  }, TAGS);
  return violations
    .filter((v) => v.impact !== null && BLOCKING.has(v.impact))
    .map((v) => `${v.id} (${v.impact}, ${v.help}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
