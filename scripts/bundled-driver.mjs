// postgres.js inside the build (issue 46): the fix of patches/ is applied to node_modules, which a
// packed or published install never sees (it installs the driver from the registry and runs no
// `prepare`), so the build carries the patched driver itself. Both builds take its CommonJS
// files, whose `tls` the patch loads only when a connection asks for TLS (its ES module files
// load it with the driver), and the build refuses a driver the patch has not been applied to.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** Resolves `postgres` to the driver's CommonJS entry in `root`'s node_modules. */
export function driverFromCommonJs(root) {
  const entry = createRequire(`${root}/package.json`).resolve("postgres");
  return {
    name: "driver-from-commonjs",
    setup(build) {
      build.onResolve({ filter: /^postgres$/ }, () => ({ path: entry }));
    },
  };
}

/**
 * The files of node_modules that a patch of `root`/patches does not hold, each named with its
 * patch: a file lacks its patch when a line the patch adds is not among the file's lines.
 */
export function unpatchedFiles(root) {
  const missing = [];
  for (const name of readdirSync(`${root}/patches`).filter((f) => f.endsWith(".patch"))) {
    const patch = readFileSync(`${root}/patches/${name}`, "utf8");
    for (const section of patch.split(/^diff --git /m).slice(1)) {
      const file = /^a\/(\S+)/.exec(section)?.[1];
      if (!file) continue;
      const added = section
        .split("\n")
        .filter((line) => line.startsWith("+") && !line.startsWith("+++") && line.trim() !== "+")
        .map((line) => line.slice(1));
      let lines;
      try {
        lines = new Set(readFileSync(`${root}/${file}`, "utf8").split("\n"));
      } catch {
        lines = new Set();
      }
      if (added.some((line) => !lines.has(line))) missing.push(`${file} (patches/${name})`);
    }
  }
  return missing;
}

/** Throws, naming the files and the way to patch them, when a patch is not applied. */
export function requirePatchedDependencies(root) {
  const missing = unpatchedFiles(root);
  if (missing.length === 0) return;
  throw new Error(
    `the build would bundle a dependency without its fix: ${missing.join(", ")} lack(s) the patch; apply patches/ with \`npx patch-package\` (\`npm ci\` and \`npm install\` run it as \`prepare\`), then build again`,
  );
}
