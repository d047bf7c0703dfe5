/**
 * `import()` of a package named at run time (the embedded Postgres' binaries). The ES module
 * builds import it themselves; `regwatch status` runs from a CommonJS file that bin/regwatch.js
 * compiles with V8's code cache (scripts/build.mjs), and code compiled that way has no `import()`
 * of its own, so its entry hands in bin/regwatch.js's (`useImporter`) before anything runs.
 */
type Importer = (specifier: string) => Promise<unknown>;

let importer: Importer = (specifier) => import(specifier);

export function useImporter(next: Importer): void {
  importer = next;
}

export function importModule(specifier: string): Promise<unknown> {
  return importer(specifier);
}
