// Reads vitest's JSON report and prints "passed failed skipped" (a crash with no report counts as one failure).
import { readFileSync } from 'node:fs';

try {
  const r = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A file that failed without a failed test (it did not load, or a beforeAll/afterAll hook threw and its
  // tests were skipped) marks the run unsuccessful: it counts as one failure.
  const failedSuites = (r.testResults ?? []).filter((s) => s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed')).length;
  console.log(`${r.numPassedTests} ${r.numFailedTests + failedSuites} ${skipped}`);
} catch (e) {
  console.error(`vitest produced no readable report: ${e.message}`);
  console.log('0 1 0');
}
