// `node scripts/slowest-tests.mjs REPORT [N]`: the N slowest test files of a vitest JSON report
// (vitest.config.ts writes one to test-output/vitest.json on every run), with each file's time
// from its first test's start to its last test's end, and the run's whole time. .ci/run prints it
// at the end of every run, so a test file that grows slow is seen in the next CI log.
import { readFileSync } from "node:fs";
import path from "node:path";

const [reportPath = "test-output/vitest.json", count = "15"] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(reportPath, "utf8"));
} catch (error) {
  console.error(`slowest-tests: cannot read ${reportPath}: ${error.message}`);
  process.exit(1);
}
const root = process.cwd();
const files = report.testResults.map((file) => ({
  name: path.relative(root, file.name),
  seconds: (file.endTime - file.startTime) / 1000,
  status: file.status,
}));
files.sort((a, b) => b.seconds - a.seconds);
const wall =
  files.length === 0 ? 0 : (Math.max(...report.testResults.map((f) => f.endTime)) - report.startTime) / 1000;
console.log(
  `== the ${Math.min(Number(count), files.length)} slowest of ${files.length} test files (the run took ${wall.toFixed(0)} s):`,
);
for (const file of files.slice(0, Number(count)))
  console.log(
    `${file.seconds.toFixed(1).padStart(7)} s  ${file.name}${file.status === "passed" ? "" : `  (${file.status})`}`,
  );
