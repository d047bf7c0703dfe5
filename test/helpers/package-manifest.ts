/** The repository's root, a file of it as text, and its package.json: for tests of the package itself. */
import { readFileSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
export const pkg = JSON.parse(read("package.json")) as {
  version: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  scripts: Record<string, string>;
};
