#!/usr/bin/env bash
# Installs node_modules when missing or when package-lock.json changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."
STAMP=node_modules/.dra-posture-lock.sha256
WANT=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
  # The lock records every platform's optional packages (scripts/test-support/lock-platforms.test.ts),
  # so npm ci accepts it on Linux, macOS and Windows alike.
  npm ci --no-audit --no-fund >&2
  echo "$WANT" > "$STAMP"
fi
