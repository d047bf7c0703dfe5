/** Types of scripts/check-node.mjs, for the test that imports it. */
export function parseVersion(text: string): [number, number, number];
export function nodeProblems(version: string, engines: string, dockerfile: string): string[];
