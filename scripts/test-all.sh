#!/usr/bin/env bash
# Runs every test of the project from a fresh clone: installs what it needs, then each runner,
# and ends with one line "N passed, N failed[, N skipped]" summing all of them.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
RESULTS=$(mktemp -d)
export NEXT_TELEMETRY_DISABLED=1

log() { printf '\n== %s\n' "$*" >&2; }

log "dependencies"
bash scripts/ensure-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
# Chromium before vitest too: the PDF export test prints with it, not only Playwright.
bash scripts/ensure-chromium.sh || echo "Chromium could not be installed: the PDF and browser tests will fail" >&2

# Each runner writes "passed failed skipped" into $RESULTS/<name>.
log "typecheck (tsc --noEmit)"
if npx tsc --noEmit -p . ; then echo "1 0 0" > "$RESULTS/typecheck"; else echo "0 1 0" > "$RESULTS/typecheck"; fi

log "lint (eslint) and formatting (prettier --check)"
if npx eslint . ; then echo "1 0 0" > "$RESULTS/lint"; else echo "0 1 0" > "$RESULTS/lint"; fi
if npx prettier --check "**/*.{ts,tsx,mjs,js,css}" ; then echo "1 0 0" > "$RESULTS/format"; else echo "0 1 0" > "$RESULTS/format"; fi

log "test control plane (real kube-apiserver built from Go modules; cached after the first build)"
if ! bash e2e/kas/build.sh > "$RESULTS/kas-path.txt"; then
  echo "the test kube-apiserver could not be built: integration tests will fail" >&2
fi

log "unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest.json"
node scripts/ci/vitest-counts.mjs "$RESULTS/vitest.json" > "$RESULTS/vitest" || echo "0 1 0" > "$RESULTS/vitest"

log "browser tests (next build + playwright)"
# tsc --noEmit above already type-checked everything the build would.
if DRA_POSTURE_BUILD_SKIP_TYPECHECK=1 npx next build; then
  PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS/playwright.json" npx playwright test --reporter=list,json
  node scripts/ci/playwright-counts.mjs "$RESULTS/playwright.json" > "$RESULTS/playwright" || echo "0 1 0" > "$RESULTS/playwright"
else
  echo "0 1 0" > "$RESULTS/playwright"
fi

node scripts/ci/summarize.mjs "$RESULTS"
