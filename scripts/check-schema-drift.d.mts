/** Types of scripts/check-schema-drift.mjs, for the test that imports it. */
export interface WrittenFile {
  name: string;
  text: string;
}
export function schemaDrift(options?: { schema?: string; migrations?: string; root?: string }): {
  written: WrittenFile[];
  output: string;
};
