import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The CI's last line sums every runner: a file whose beforeAll throws skips its tests, and that
// must count as a failure, not as skipped tests (it once hid a failing integration test).

const counts = (report: unknown) => {
  const file = join(mkdtempSync(join(tmpdir(), 'ci-counts-')), 'vitest.json');
  writeFileSync(file, JSON.stringify(report));
  return execFileSync(process.execPath, [join(__dirname, '..', 'ci', 'vitest-counts.mjs'), file], { encoding: 'utf8' }).trim();
};

describe('scripts/ci/vitest-counts.mjs', () => {
  it('counts a file that failed in a hook (its tests skipped) and one that failed to load as failures', () => {
    const report = {
      numPassedTests: 3,
      numFailedTests: 0,
      numPendingTests: 2,
      numTodoTests: 0,
      testResults: [
        { status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'passed' }] },
        { status: 'failed', assertionResults: [{ status: 'passed' }, { status: 'skipped' }, { status: 'skipped' }] },
        { status: 'failed', assertionResults: [] },
      ],
    };
    expect(counts(report)).toBe('3 2 2');
  });

  it('does not count a file twice when one of its tests failed', () => {
    const report = {
      numPassedTests: 1,
      numFailedTests: 1,
      numPendingTests: 0,
      testResults: [{ status: 'failed', assertionResults: [{ status: 'passed' }, { status: 'failed' }] }],
    };
    expect(counts(report)).toBe('1 1 0');
  });
});
