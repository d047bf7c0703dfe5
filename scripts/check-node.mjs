// `node scripts/check-node.mjs` (.ci/run, before anything is installed): fails when the Node that
// runs it is not the one regwatch is built for, so CI tests the runtime users and the image get.
// Two rules: it satisfies package.json's engines.node, and it is of the same major line as the
// Dockerfile's Node image (one Node across engines, the image and CI). Plain Node, no packages.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("..", import.meta.url);

/** [major, minor, patch] of "v20.19.0", "20.19" or "20". */
export function parseVersion(text) {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`not a Node version: ${text}`);
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The problems of running `version` as regwatch's Node; [] when there are none. */
export function nodeProblems(version, engines, dockerfile) {
  const problems = [];
  const range = /^>=\s*(\S+)$/.exec(engines.trim());
  if (!range) return [`package.json engines.node is "${engines}"; this check reads only ">=X.Y.Z"`];
  const running = parseVersion(version);
  if (compare(running, parseVersion(range[1])) < 0)
    problems.push(`Node ${version} does not satisfy package.json engines.node "${engines}"`);
  const image = /^FROM node:(\d+\.\d+\.\d+)-/m.exec(dockerfile)?.[1];
  if (!image) problems.push("the Dockerfile has no `FROM node:X.Y.Z-...` line");
  else {
    if (compare(parseVersion(image), parseVersion(range[1])) < 0)
      problems.push(`the Dockerfile's node:${image} does not satisfy engines.node "${engines}"`);
    if (parseVersion(image)[0] !== running[0])
      problems.push(
        `Node ${version} is not of the Dockerfile's line (node:${image}): test on the Node the image runs`,
      );
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));
  const problems = nodeProblems(
    process.version,
    pkg.engines?.node ?? "",
    readFileSync(new URL("Dockerfile", root), "utf8"),
  );
  for (const problem of problems) console.error(`check-node: ${problem}`);
  process.exit(problems.length === 0 ? 0 : 1);
}
