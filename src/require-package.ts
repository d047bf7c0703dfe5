/**
 * A CommonJS package loaded when first needed: through `require`, never `import()`. An import()
 * of CommonJS answers differently wherever regwatch runs: Node's loader gives the exports by name
 * and under `default`, the build's chunk (esbuild) under `default` only, the sources run by tsx by
 * name only, so no one way of reading the answer works in all three (the build once sent no
 * webhook). `require` answers with the package's exports in every one of them; the bundler leaves
 * this call alone, so the package is read from node_modules, where it is a runtime dependency.
 * `npm run check:imports` refuses an import() of a CommonJS package.
 */
import { createRequire } from "node:module";

const requireHere = createRequire(import.meta.url);

export function requirePackage<T>(name: string): T {
  return requireHere(name) as T;
}
