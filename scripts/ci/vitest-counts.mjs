// Reads vitest's JSON report and prints "passed failed skipped" (a crash with no report counts as one failure).
import { readFileSync } from 'node:fs';

try {
  const r = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A suite that failed to load has no tests but marks the run unsuccessful.
  const failedSuites = (r.testResults ?? []).filter((s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0).length;
  console.log(`${r.numPassedTests} ${r.numFailedTests + failedSuites} ${skipped}`);
} catch (e) {
  console.error(`vitest produced no readable report: ${e.message}`);
  console.log('0 1 0');
}
