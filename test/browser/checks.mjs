// What the browser tests share: their checks, and the end of a run — the "N passed, M failed"
// line, the report CI counts (vitest's JSON fields), and the exit code.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export function checks() {
  const results = [];
  const check = (name, ok, detail = "") => {
    results.push({ name, ok });
    console.log(`${ok ? "✓" : "✗"} ${name}${ok || !detail ? "" : `\n    ${detail}`}`);
  };
  const finish = () => {
    const failed = results.filter((result) => !result.ok).length;
    const reportIndex = process.argv.indexOf("--report");
    if (reportIndex > 0 && process.argv[reportIndex + 1]) {
      const report = process.argv[reportIndex + 1];
      mkdirSync(dirname(report), { recursive: true });
      writeFileSync(report, JSON.stringify({ numPassedTests: results.length - failed, numFailedTests: failed, success: failed === 0 }));
    }
    console.log(`${results.length - failed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  };
  return { check, finish };
}
