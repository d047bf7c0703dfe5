/** Types of scripts/bundled-driver.mjs, for the test that imports it. */
export function unpatchedFiles(root: string): string[];
export function requirePatchedDependencies(root: string): void;
