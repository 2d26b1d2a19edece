// Reads Playwright's JSON report and prints "passed failed skipped" (a run with no readable report,
// or with errors outside tests such as a web server that did not start, counts as one failure).
import { readFileSync } from 'node:fs';

try {
  const r = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const s = r.stats ?? {};
  // "flaky" tests passed on a retry; "unexpected" failed; "skipped" were skipped.
  const passed = (s.expected ?? 0) + (s.flaky ?? 0);
  const failed = (s.unexpected ?? 0) + ((r.errors ?? []).length > 0 ? 1 : 0);
  console.log(`${passed} ${failed} ${s.skipped ?? 0}`);
} catch (e) {
  console.error(`playwright produced no readable report: ${e.message}`);
  console.log('0 1 0');
}
