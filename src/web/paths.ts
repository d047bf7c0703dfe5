/**
 * Where the console's templates and static files are: next to the sources when regwatch runs
 * from src/ (tsx), copied to dist/web/ by scripts/build.mjs when it runs from the bundle.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "../package-root.ts";

export function webAssetDir(kind: "views" | "static"): string {
  const root = packageRoot();
  const here = fileURLToPath(import.meta.url);
  const bundled = here.startsWith(path.join(root, "dist") + path.sep);
  return path.join(root, bundled ? "dist/web" : "src/web", kind);
}
