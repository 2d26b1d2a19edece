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

# Each runner writes "passed failed skipped" into $RESULTS/<name>.
log "typecheck (tsc --noEmit)"
if npx tsc --noEmit -p . ; then echo "1 0 0" > "$RESULTS/typecheck"; else echo "0 1 0" > "$RESULTS/typecheck"; fi

log "unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$RESULTS/vitest.json"
node scripts/ci/vitest-counts.mjs "$RESULTS/vitest.json" > "$RESULTS/vitest" || echo "0 1 0" > "$RESULTS/vitest"

node scripts/ci/summarize.mjs "$RESULTS"
