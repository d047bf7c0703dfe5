/** Validation of `alerts rule add` arguments: every problem named, before anything is stored. */
import type { AlertChannel, AlertRuleInput } from "../db/alerts-rules.ts";

export const CHANNELS: readonly AlertChannel[] = ["webhook", "email", "notify"];

export function validateRule(input: {
  name: string;
  channel: string;
  target: string;
  lists: string[];
  headings: string[];
  digest: boolean;
}): { rule?: AlertRuleInput; problems: string[] } {
  const problems: string[] = [];
  const name = input.name.trim();
  if (name === "") problems.push("NAME must not be empty");
  const target = input.target.trim();
  if (!CHANNELS.includes(input.channel as AlertChannel)) {
    problems.push(`--channel "${input.channel}" is not one of ${CHANNELS.join(", ")}`);
  } else {
    const problem = targetProblem(input.channel as AlertChannel, target);
    if (problem) problems.push(problem);
  }
  const blank = [...input.lists, ...input.headings].some((v) => v.trim() === "");
  if (blank) problems.push("--list and --heading values must not be empty");
  if (problems.length > 0) return { problems };
  return {
    problems,
    rule: {
      name,
      channel: input.channel as AlertChannel,
      target,
      lists: [...new Set(input.lists.map((l) => l.trim()))],
      headings: [...new Set(input.headings.map((h) => h.trim()))],
      digest: input.digest,
    },
  };
}

function targetProblem(channel: AlertChannel, target: string): string | undefined {
  if (channel === "webhook") {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return `--target "${target}" is not a URL (a webhook needs http:// or https://)`;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return `--target "${target}" must be an http:// or https:// URL`;
    return undefined;
  }
  if (channel === "email") {
    const addresses = target.split(",").map((a) => a.trim());
    const bad = addresses.filter((a) => !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(a));
    return bad.length > 0
      ? `--target: not an e-mail address: ${bad.map((b) => `"${b}"`).join(", ")}`
      : undefined;
  }
  if (target === "" || Buffer.byteLength(target) > 63)
    return `--target "${target}" must be a NOTIFY channel name of 1 to 63 bytes`;
  return undefined;
}
